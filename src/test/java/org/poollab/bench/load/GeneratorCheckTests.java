package org.poollab.bench.load;

import java.util.List;
import java.util.Optional;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.poollab.bench.results.EngineLoad;
import org.poollab.bench.results.Latency;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Pool;

import static org.assertj.core.api.Assertions.assertThat;

public class GeneratorCheckTests {

	@Test
	void aGeneratorOnScheduleMeasuredTheService() {
		assertThat(GeneratorCheck.verdict(point("even", 2000, 1999.6, 2))).isEmpty();
	}

	@Test
	void lateStartsAboveTheLimitMakeThePointGeneratorBound() {
		assertThat(GeneratorCheck.verdict(point("even", 2000, 2000, 445)))
			.hasValueSatisfying((verdict) -> assertThat(verdict)
				.startsWith("generator-bound: JMeter sent late (late starts p99 445 ms"));
		assertThat(GeneratorCheck.verdict(point("even", 2000, 2000, 10))).as("at the limit").isEmpty();
	}

	@Test
	void aRateSentOffByMoreThanThreePercentMakesThePointGeneratorBound() {
		assertThat(GeneratorCheck.verdict(point("even", 2000, 1494, 0)))
			.hasValueSatisfying((verdict) -> assertThat(verdict).contains("sent 1494 rps for 2000"));
		assertThat(GeneratorCheck.verdict(point("even", 2000, 1950, 0))).as("2.5 % off").isEmpty();
	}

	@Test
	void randomArrivalsMayScatterByThreeStandardDeviations() {
		// 500 rps for 5 s: 2,500 expected, one standard deviation 50 (2 %).
		assertThat(GeneratorCheck.verdict(point("random", 500, 475, -1))).as("5 % off, within 3 sd").isEmpty();
		assertThat(GeneratorCheck.verdict(point("random", 500, 460, -1))).as("8 % off").isPresent();
	}

	@Test
	void aLateRemoteEngineIsNamedInTheVerdict() {
		Point point = point("even", 2000, 2000, 40).toBuilder()
			.engines(List.of(new EngineLoad("127.0.0.4:1099", 1000, 1), new EngineLoad("127.0.0.5:1099", 1000, 45)))
			.build();
		assertThat(GeneratorCheck.verdict(point)).hasValueSatisfying((verdict) -> assertThat(verdict).contains(
				"(remote engines: 127.0.0.4:1099 sent 1000.0 rps, late p99 1 ms; 127.0.0.5:1099 sent 1000.0 rps, late p99 45 ms)"));
	}

	@Test
	void aWindowInWhichNoRequestStartedIsGeneratorBound() {
		// JMeter that begins its schedule after the window (seconds late on a busy
		// machine) sent nothing in it: the window measured the generator and is
		// re-measured, not a lab failure.
		Point nothing = point("even", 50, 0, 0);
		assertThat(nothing.samples()).isZero();
		Optional<String> verdict = GeneratorCheck.verdict(nothing);
		assertThat(verdict).hasValueSatisfying((why) -> assertThat(why).startsWith("generator-bound: JMeter")
			.contains("sent 0 rps for 50 (off by 100.0 %"));
		assertThat(GeneratorCheck.generatorBound(nothing.withOutcome(verdict.orElseThrow())))
			.as("re-measured, left out of verdicts")
			.isTrue();
	}

	public static Point point(String arrivals, int rateRps, double achievedRps, double lagP99Ms) {
		long samples = Math.round(achievedRps * 5);
		Latency latency = new Latency(1, 1, 2, 3, 4, 5);
		Pool pool = new Pool(List.of(5), 3, 0, 0.1, 0.5, 0, 10);
		return Point.builder()
			.topology("single")
			.poolSize(5)
			.rateRps(rateRps)
			.arrivals(arrivals)
			.warmupSeconds(1)
			.durationSeconds(5)
			.achievedRps(achievedRps)
			.samples(samples)
			.errors(0)
			.statusCounts(Map.of("200", samples))
			.latency(latency)
			.failedMaxMs(0)
			.pool(pool)
			.loadGeneratorCpuCores(0.4)
			.startLagP99Ms(lagP99Ms)
			.refusals(Map.of())
			.build();
	}

}
