package org.poollab.bench.load;

import org.junit.jupiter.api.Test;

import org.poollab.bench.results.Latency;

import static org.assertj.core.api.Assertions.assertThat;

class CrossCheckTests {

	@Test
	void withinOneAndAHalfTimesOrThreeMillisecondsWhicheverIsLarger() {
		assertThat(CrossCheck.agrees(5, 7.9)).as("2.9 ms apart").isTrue();
		assertThat(CrossCheck.agrees(9, 4.4)).as("4.6 ms apart and 2x: measured at 1000 rps").isFalse();
		assertThat(CrossCheck.agrees(20, 30)).as("1.5x").isTrue();
		assertThat(CrossCheck.agrees(20, 30.1)).isFalse();
		assertThat(CrossCheck.agrees(0.7, 1)).isTrue();
	}

	@Test
	void bothPercentilesMustAgree() {
		Latency jmeter = new Latency(2, 1, 3, 9, 20, 30);
		assertThat(CrossCheck.agrees(jmeter, 0.8, 6.5)).isTrue();
		assertThat(CrossCheck.agrees(jmeter, 0.8, 4.4)).isFalse();
		assertThat(CrossCheck.agrees(new Latency(9, 9, 9, 9, 9, 9), 2.0, 9)).as("p50 apart").isFalse();
	}

	@Test
	void readsTheCheckersResultLine() {
		String line = "result rate=1000 arrivals=even duration_s=10 due=10000 sent=9990 ok=9990 errors=0"
				+ " p50_ms=0.812 p90_ms=1.5 p99_ms=4.400 p999_ms=9 max_ms=12 mean_ms=1 sent_p50_ms=0.8 sent_p99_ms=4"
				+ " sent_max_ms=11 send_lag_p50_ms=0.1 send_lag_p99_ms=0.350 send_lag_max_ms=2"
				+ " connections_opened=12 cpu_cores=0.170 loop_cpu_cores=0.100";
		org.poollab.bench.results.CrossCheckResult check = CrossCheck.parse(line, new Latency(2, 1, 3, 9, 20, 30));
		assertThat(check.p50Ms()).isEqualTo(0.812);
		assertThat(check.p99Ms()).isEqualTo(4.4);
		assertThat(check.sendLagP99Ms()).isEqualTo(0.35);
		assertThat(check.sentRps()).isEqualTo(999);
		assertThat(check.errors()).isZero();
		assertThat(check.cpuCores()).isEqualTo(0.17);
		assertThat(check.agrees()).isFalse();
	}

}
