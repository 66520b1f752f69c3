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

/** The report on demand ends like the sweep's console. */
class ReportMainTests {

	@TempDir
	Path runDir;

	@Test
	void printsTheAnswersWhereTheReportIsAndTheRecommendedBlock() throws IOException {
		try (InputStream fixture = getClass().getResourceAsStream("paper-results-20261123.json")) {
			Files.copy(fixture, this.runDir.resolve(ResultsStore.RESULTS_JSON));
		}
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();

		ReportMain.run(this.runDir, new PrintStream(bytes, true, StandardCharsets.UTF_8));

		String console = bytes.toString(StandardCharsets.UTF_8);
		String yaml = Files.readString(this.runDir.resolve("recommended-application.yml"));
		assertThat(console).contains("single: maximum-pool-size 5 (provisional). At 2000 rps",
				"multi: maximum-pool-size 10 (provisional). At 1000 rps",
				"Report: " + this.runDir.resolve("report.html").toAbsolutePath(), "Recommended configuration ("
						+ this.runDir.resolve("recommended-application.yml").toAbsolutePath() + "):\n" + yaml);
		assertThat(yaml).contains("# Provisional: one run per point; confirm with -Dbench.repeats=3.\n",
				"results from before confirmation runs).\nspring:\n", "      maximum-pool-size: 10\n");
		assertThat(RecommendedYamlTests.why(yaml, "maximum-pool-size")).startsWith("per instance; measured");
	}

}
