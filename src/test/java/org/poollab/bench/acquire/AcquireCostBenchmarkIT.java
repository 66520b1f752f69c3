package org.poollab.bench.acquire;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import org.poollab.bench.acquire.AcquireCostBenchmark.Outcome;
import org.poollab.bench.acquire.AcquireCostBenchmark.Result;
import org.poollab.bench.acquire.AcquireCostBenchmark.Settings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The acquire-cost benchmark run tiny against the embedded PostgreSQL: a benchmark, not a
 * timing test, so the only figure checked is the behaviour it exists to show.
 */
class AcquireCostBenchmarkIT {

	@TempDir
	Path output;

	@Test
	void pooledAcquisitionReusesConnectionsAndBeatsOpeningOneEachTime() throws Exception {
		Outcome outcome = AcquireCostBenchmark.run(new Settings(20, 2, "", "postgres", "", this.output));

		Result result = outcome.result();
		assertThat(result.acquisitions()).isEqualTo(20);
		assertThat(result.poolSize()).isEqualTo(2);
		assertThat(result.database()).startsWith("jdbc:postgresql://").doesNotContain("?");
		for (AcquireCostBenchmark.Timing timing : new AcquireCostBenchmark.Timing[] { result.unpooled(),
				result.pooled() }) {
			assertThat(timing.minMs()).isPositive().isLessThanOrEqualTo(timing.medianMs());
			assertThat(timing.medianMs()).isLessThanOrEqualTo(timing.maxMs());
			assertThat(timing.meanMs()).isBetween(timing.minMs(), timing.maxMs());
			assertThat(timing.stddevMs()).isNotNegative();
		}
		assertThat(result.pooled().medianMs()).as("pooled median (a pool hands out a connection it already holds)")
			.isLessThan(result.unpooled().medianMs());
		assertThat(result.medianRatio()).isEqualTo(result.unpooled().medianMs() / result.pooled().medianMs());

		assertThat(outcome.directory()).hasParent(this.output);
		Result written = JsonMapper.builder()
			.build()
			.readValue(outcome.directory().resolve("acquire-cost.json").toFile(), Result.class);
		assertThat(written).isEqualTo(result);
		assertThat(outcome.directory().resolve("acquire-cost.md")).content()
			.contains("| median |", "| time (ms) | no pooling | HikariCP |", "times faster by median");
	}

}
