package org.poollab.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * The "Acquire cost" section, rendered from an {@code acquire-cost.json} in the run
 * directory as the acquire-cost benchmark writes it.
 */
class AcquireCostReportTests {

	/**
	 * Medians 4.0 vs 0.004 ms (1,000 times), means 6.0 vs 0.004 ms (1,500 times); the
	 * stored ratios are what the benchmark computed from the same figures.
	 */
	private static final String ACQUIRE_COST = """
			{
			  "startedAt" : "2026-11-22T10:02:11.123Z",
			  "database" : "jdbc:postgresql://localhost:54321/postgres",
			  "acquisitions" : 1000,
			  "warmupAcquisitions" : 50,
			  "poolSize" : 5,
			  "unpooled" : {
			    "method" : "DriverManager.getConnection + close",
			    "minMs" : 1.5,
			    "maxMs" : 30.25,
			    "meanMs" : 6.0,
			    "medianMs" : 4.0,
			    "stddevMs" : 3.5
			  },
			  "pooled" : {
			    "method" : "HikariDataSource.getConnection + close",
			    "minMs" : 0.003,
			    "maxMs" : 0.07,
			    "meanMs" : 0.004,
			    "medianMs" : 0.004,
			    "stddevMs" : 0.002
			  },
			  "medianRatio" : 1000.0,
			  "meanRatio" : 1500.0
			}
			""";

	@TempDir
	Path runDir;

	@Test
	void acquireCostJsonInTheRunDirectoryAddsTheSectionWithTheRatiosOfMediansAndMeans() throws IOException {
		ReportFixture.writeResults(this.runDir, "quick");
		Files.writeString(this.runDir.resolve(AcquireCost.FILE), ACQUIRE_COST);
		Report.regenerate(this.runDir);

		String markdown = Files.readString(this.runDir.resolve("report.md"));
		assertThat(markdown).contains("## Acquire cost: pooled vs unpooled",
				"| statistic | no pooling (ms) | HikariCP, pool of 5 (ms) | no pooling / HikariCP |",
				"| min | 1.5000 | 0.0030 | – |", "| mean | 6.0000 | 0.0040 | 1,500 |",
				"| median | 4.0000 | 0.0040 | 1,000 |",
				"HikariCP was 1,000 times faster by median and 1,500 times by mean.",
				"1000 connections opened and closed without a pool");
		assertThat(markdown.indexOf("## Acquire cost")).isGreaterThan(markdown.lastIndexOf("## Topology "));
		// not the pooling preset: the article's table is not shown
		assertThat(markdown).doesNotContain("Published figures", "shown next");

		Document page = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));
		Element section = page.getElementById("acquire-cost");
		assertThat(section).isNotNull();
		assertThat(section.select("h2").text()).isEqualTo("Acquire cost: pooled vs unpooled");
		assertThat(section.select("tbody tr").last().select("td").eachText()).containsExactly("median", "4.0000",
				"0.0040", "1,000");
		assertThat(section.text()).contains("1,000 times faster by median and 1,500 times by mean");
	}

	@Test
	void poolingReportPutsTheArticlesPublishedTableRightAfterOurAcquireCost() throws IOException {
		ReportFixture.writeResults(this.runDir, "pooling");
		Files.writeString(this.runDir.resolve(AcquireCost.FILE), ACQUIRE_COST);
		Report.regenerate(this.runDir);

		String markdown = Files.readString(this.runDir.resolve("report.md"));
		int ours = markdown.indexOf("## Acquire cost: pooled vs unpooled");
		assertThat(ours).isNotNegative();
		assertThat(markdown.indexOf("\n## ", ours + 1))
			.isEqualTo(markdown.indexOf("\n## Published figures: The anatomy of Connection Pooling"));
		assertThat(markdown).contains("published its own table, shown next, for comparison only");
		// the article's figures stay in their own table
		String oursOnly = markdown.substring(ours, markdown.indexOf("\n## Published figures"));
		assertThat(oursOnly).doesNotContain("76.15044", "0.003218");

		Document page = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));
		assertThat(page.getElementById("acquire-cost").nextElementSibling().id()).isEqualTo("published-mihalcea-2014");
	}

	@Test
	void runWithoutAcquireCostJsonHasNoAcquireCostSection() throws IOException {
		ReportFixture.writeResults(this.runDir, "pooling");
		Report.regenerate(this.runDir);

		assertThat(Files.readString(this.runDir.resolve("report.md"))).doesNotContain("Acquire cost", "shown next")
			.contains("## Published figures: The anatomy of Connection Pooling");
		assertThat(Jsoup.parse(Files.readString(this.runDir.resolve("report.html"))).getElementById("acquire-cost"))
			.isNull();
	}

	@Test
	void unreadableAcquireCostJsonFailsTheReportNamingTheFile() throws IOException {
		ReportFixture.writeResults(this.runDir, "pooling");
		Files.writeString(this.runDir.resolve(AcquireCost.FILE), "{ \"poolSize\": ");

		assertThatIOException().isThrownBy(() -> Report.regenerate(this.runDir))
			.withMessageContaining(this.runDir.resolve(AcquireCost.FILE).toString());
	}

}
