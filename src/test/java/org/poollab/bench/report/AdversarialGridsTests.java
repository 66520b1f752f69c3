package org.poollab.bench.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.results.ResultsStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Grids a real run can produce on which the rule once gave a wrong answer, each a
 * hand-made {@code results.json} (under {@code adversarial/}) put through
 * {@link ReportMain} as a user would regenerate a report: the console's answer and the
 * pasted block are what is checked.
 */
class AdversarialGridsTests {

	@TempDir
	Path runDir;

	@Test
	void anUnderstatedCellNeverWinsEvenWhenItIsTheLastButOneCandidate() throws IOException {
		// 1000 rps: pool 2 at 3 ms but JMeter started its requests up to 60 ms late, pool
		// 5 at 12 ms, pool 10 failed. Pool 2's p99 is lower than a client on schedule
		// saw.
		Run run = report("understated-cell");

		assertThat(run.yaml()).contains("maximum-pool-size: 5").doesNotContain("maximum-pool-size: 2");
		assertThat(run.console()).startsWith("single: maximum-pool-size 5");
	}

	@Test
	void aRateWhereTwoPoolsWereRefutedNeverDecidesEvenAsTheFallback() throws IOException {
		// One rate, pools 1, 3 and 10; confirmations refuted 1 and then 3. Pool 10 was
		// never confirmed: the grid's cells at that rate no longer say what a deployment
		// does, so no pool is recommended.
		Run run = report("refuted-rate");

		assertThat(run.console()).startsWith("single: no conclusion").doesNotContain("picked in 100 %");
		assertThat(run.yaml()).doesNotContain("maximum-pool-size: 10");
	}

	@Test
	void aNoisySlowPoolIsNotIndistinguishableFromTheBest() throws IOException {
		// 500 rps: pool 1 at 45 [5-85] ms, pools 5 and 10 at 10 [9-11] ms. The interval
		// of
		// pool 1's difference includes 0 only because it is wide: equivalence is not
		// shown.
		Run run = report("noisy-slow-pool");

		assertThat(run.yaml()).contains("maximum-pool-size: 5");
		assertThat(run.console()).startsWith("single: maximum-pool-size 5");
	}

	@Test
	void aLooseObjectiveDoesNotMakeA95MsPoolEqualToA5MsOne() throws IOException {
		// A 1 s objective: pool 2 at 95 ms, pools 5 and 10 at 5 ms, narrow intervals. A
		// tenth of the objective (100 ms) is no bound on "the same".
		Run run = report("loose-objective");

		assertThat(run.yaml()).contains("maximum-pool-size: 5");
		assertThat(run.console()).startsWith("single: maximum-pool-size 5");
	}

	@Test
	void theLargestPoolNeedsTheSameMarginFromTheObjectiveAsAnyOther() throws IOException {
		// 1000 rps: pools 5 and 10 failed, pool 20 at 97 [80-115] ms against 100 ms.
		// Being
		// the largest pool is no margin: the answer is decided at 500 rps.
		Run run = report("largest-pool-near-objective");

		assertThat(run.console()).startsWith("single: maximum-pool-size 5").contains("At 500 rps");
		assertThat(run.yaml()).contains("maximum-pool-size: 5");
	}

	@Test
	void theModelsBaseIsNeverAPoolPastTheKnee() throws IOException {
		// 400 rps, Poisson arrivals, one instance. Past the knee pool 50 held its
		// connections longer and measured 65 ms; pool 10 measured 27 ms. With pool 50 as
		// the base, the model put pool 10 at 65 ms and more.
		Run run = report("model-past-the-knee");

		String table = ReportFiguresTests.table(run.markdown(), "### Connection hold and the queueing model");
		assertThat(ReportFiguresTests.row(table, "10")).contains("| agree |");
		assertThat(table).contains("of them at a predicted utilisation from 0.5 to 0.85");
	}

	private Run report(String fixture) throws IOException {
		try (InputStream json = AdversarialGridsTests.class.getResourceAsStream("adversarial/" + fixture + ".json")) {
			Files.write(this.runDir.resolve(ResultsStore.RESULTS_JSON), json.readAllBytes());
		}
		ByteArrayOutputStream console = new ByteArrayOutputStream();
		ReportMain.run(this.runDir, new PrintStream(console, true, StandardCharsets.UTF_8));
		String out = console.toString(StandardCharsets.UTF_8);
		return new Run(out.substring(out.indexOf('\n') + 1),
				Files.readString(this.runDir.resolve(Report.RECOMMENDED_YAML)),
				Files.readString(this.runDir.resolve(Report.MARKDOWN)));
	}

	/**
	 * What a user sees: the console after the line naming the shape of results.json, the
	 * block to paste, and the report.
	 */
	private record Run(String console, String yaml, String markdown) {
	}

}
