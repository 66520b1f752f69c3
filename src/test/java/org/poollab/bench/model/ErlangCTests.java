package org.poollab.bench.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

class ErlangCTests {

	@Test
	void oneServerWaitsWithTheUtilisation() {
		// M/M/1: an arrival waits exactly when the server is busy, C(1, ρ) = ρ.
		assertThat(ErlangC.probabilityOfWaiting(1, 0.3)).isCloseTo(0.3, within(1e-12));
		assertThat(ErlangC.probabilityOfWaiting(1, 0.9)).isCloseTo(0.9, within(1e-12));
	}

	@Test
	void twoServersMatchTheClosedForm() {
		// M/M/2: C(2, a) = a² / (2 + a).
		for (double a : new double[] { 0.1, 0.5, 1.0, 1.5, 1.9 }) {
			assertThat(ErlangC.probabilityOfWaiting(2, a)).isCloseTo(a * a / (2 + a), within(1e-12));
		}
	}

	@Test
	void matchesPublishedValues() {
		// Wolfram Language documentation, "ErlangC" (Wolfram Research, 2012,
		// https://reference.wolfram.com/language/ref/ErlangC.html): ErlangC[3, 2] = 4/9,
		// and two 1 Mbit/s lines with 150 packets/s of 10 kbit each (a = 1.5): 0.6429.
		assertThat(ErlangC.probabilityOfWaiting(3, 2)).isCloseTo(4.0 / 9, within(1e-12));
		assertThat(ErlangC.probabilityOfWaiting(2, 1.5)).isCloseTo(0.6429, within(5e-5));
	}

	@Test
	void recursionAgreesWithTheTextbookSumWherePowersStillFit() {
		// C(c, a) = (a^c / c!) (c / (c - a)) / (sum_{k<c} a^k / k! + (a^c / c!) (c / (c -
		// a))),
		// computed here directly: a different formula from the recursion the class uses.
		for (int servers : new int[] { 3, 8, 12, 14, 20 }) {
			for (double offered : new double[] { 0.5, 2, 7.5, 10 }) {
				if (offered >= servers) {
					continue;
				}
				double sum = 0;
				double term = 1;
				for (int k = 0; k < servers; k++) {
					sum += term;
					term *= offered / (k + 1);
				}
				double waiting = term * servers / (servers - offered);
				assertThat(ErlangC.probabilityOfWaiting(servers, offered)).as("C(%d, %s)", servers, offered)
					.isCloseTo(waiting / (sum + waiting), within(1e-12));
			}
		}
	}

	@Test
	void largePoolsNeitherOverflowNorLoseTheValue() {
		// 300 servers at 290 erlangs: factorials and powers would overflow a double.
		double waiting = ErlangC.probabilityOfWaiting(300, 290);
		assertThat(waiting).isBetween(0.0, 1.0);
		assertThat(ErlangC.probabilityOfWaiting(300, 200)).isLessThan(1e-9);
	}

	@Test
	void anUnstableQueueAlwaysWaitsForever() {
		assertThat(ErlangC.probabilityOfWaiting(2, 2)).isEqualTo(1);
		assertThat(ErlangC.meanWaitSeconds(2, 100, 0.02, 1, 1)).isInfinite();
		assertThat(ErlangC.waitQuantileSeconds(2, 100, 0.03, 1, 1, 0.99)).isInfinite();
	}

	@Test
	void meanWaitOfMM1IsTheTextbookOne() {
		// M/M/1: Wq = ρ / (μ − λ); λ = 50/s, service 10 ms (μ = 100/s): 0.5 / 50 = 10 ms.
		assertThat(ErlangC.meanWaitSeconds(1, 50, 0.010, 1, 1)).isCloseTo(0.010, within(1e-12));
		// Evenly spaced arrivals and a fixed hold halve and then remove the wait.
		assertThat(ErlangC.meanWaitSeconds(1, 50, 0.010, 0, 1)).isCloseTo(0.005, within(1e-12));
		assertThat(ErlangC.meanWaitSeconds(1, 50, 0.010, 0, 0)).isZero();
	}

	@Test
	void waitQuantileFollowsTheExponentialTail() {
		// M/M/1, ρ = 0.5, μ − λ = 50/s: P(W > t) = 0.5 e^(−50 t), the p99 is ln(50) / 50.
		assertThat(ErlangC.waitQuantileSeconds(1, 50, 0.010, 1, 1, 0.99)).isCloseTo(Math.log(50) / 50, within(1e-12));
		// Fewer than 1 % wait at all: the p99 wait is 0.
		assertThat(ErlangC.waitQuantileSeconds(10, 100, 0.010, 1, 1, 0.99)).isZero();
	}

	@Test
	void refusesWhatHasNoMeaning() {
		assertThatIllegalArgumentException().isThrownBy(() -> ErlangC.probabilityOfWaiting(0, 1));
		assertThatIllegalArgumentException().isThrownBy(() -> ErlangC.probabilityOfWaiting(1, -1));
	}

}
