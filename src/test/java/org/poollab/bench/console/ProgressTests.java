package org.poollab.bench.console;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.poollab.bench.deciding.RecommenderTests;
import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.load.GeneratorCheckTests;
import org.poollab.bench.results.Latency;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Pool;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ETA counts what is left: the plan's runs (their schedules plus each run's own cost
 * at the mean so far), the deployments left, and re-measures already known.
 */
class ProgressTests {

	private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

	private final Progress progress = new Progress(6, 2, List.of(seconds(20), seconds(20), seconds(20)),
			new PrintStream(this.bytes, true, StandardCharsets.UTF_8));

	@Test
	void afterTheFirstRunTheRestOfThePlanAndTheOtherDeploymentAreCounted() {
		this.progress.deployed(seconds(60));
		this.progress.ran(List.of(point(), point()), seconds(30), Deployment.NONE);

		// two runs left at 20 s + the 10 s overhead the first one had, one deployment at
		// 60 s
		assertThat(this.progress.etaNanos()).isEqualTo(seconds(2 * 30 + 60));
		assertThat(this.bytes.toString(StandardCharsets.UTF_8)).contains("[ 1/6]", "[ 2/6]", "ETA 2m00s");
	}

	@Test
	void knownReMeasuresAreCountedUntilTheyRan() {
		this.progress.deployed(seconds(60));
		this.progress.ran(List.of(point(), point()), seconds(30), Deployment.NONE);
		this.progress.expectAgain(seconds(14));

		assertThat(this.progress.etaNanos()).isEqualTo(seconds(2 * 30 + 60 + 14 + 10));
		this.progress.again(List.of(point()), seconds(24), Deployment.NONE);
		assertThat(this.progress.etaNanos()).isEqualTo(seconds(2 * 30 + 60));
	}

	@Test
	void aSlowedPointShowsItsLatencyInTheTeamsTimeAndAsMeasured() {
		Point slowed = point().toBuilder().timeScale(2, 1, new Latency(30, 20, 40, 61, 70, 90)).build();
		this.progress.ran(List.of(slowed, point()), seconds(30), Deployment.NONE);
		List<String> lines = this.bytes.toString(StandardCharsets.UTF_8).lines().toList();
		assertThat(lines.get(0)).contains("ms (k = 2, measured p99 61 ms)  server p99");
		assertThat(lines.get(1)).doesNotContain("measured p99");
	}

	private static long seconds(long seconds) {
		return Duration.ofSeconds(seconds).toNanos();
	}

	private static Point point() {
		return GeneratorCheckTests.point("even", 500, 500, 1);
	}

	@Test
	void aHoldWithoutItsHistogramShowsItsMeanAndSaysThePercentileIsMissing() {
		Point point = RecommenderTests.point("single", 4, 50, 50, 0, 5)
			.toBuilder()
			.pool(new Pool(List.of(4), 2, 0, 1, 8, 0, 5, null, null, 8.0, null, null))
			.build();

		assertThat(Progress.hold(point)).isEqualTo("  hold 8.0 ms mean, p99 not measured (no histogram)");
	}

}
