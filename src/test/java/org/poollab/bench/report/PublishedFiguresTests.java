package org.poollab.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed texts' published figures in reports of the presets that reproduce them, kept
 * apart from what the lab measured.
 */
class PublishedFiguresTests {

	private static final String PAPER_TITLE = "A Study of Database Connection Pool in Microservice Architecture";

	@TempDir
	Path runDir;

	@Test
	void paperReportInMarkdownShowsThePapersFourTablesLabelledAsPublishedAfterOurOwn() throws IOException {
		render("paper");
		String markdown = Files.readString(this.runDir.resolve("report.md"));

		String published = "## Published figures: " + PAPER_TITLE;
		assertThat(markdown).containsOnlyOnce(published);
		assertThat(markdown.indexOf(published)).isGreaterThan(markdown.lastIndexOf("## Topology "));
		String section = markdown.substring(markdown.indexOf(published));
		assertThat(section).contains("International Journal on Informatics Visualization (JOIV), 2022",
				PublishedFigures.LABEL, "Vegeta", "Arm64v8", "GOMAXPROCS = 1");
		// Table I, single instance, pool 1: 438.966 / 9387 / 19433 ms at 500 / 1000 /
		// 2000
		// rps
		assertThat(tableAfter(section, "### Published by the paper, Table I: max latency (ms), single instance"))
			.contains("| 1 | 438.966 | 9387 | 19433 |", "| 10 | 24.278 | 119.675 | 499.172 |");
		assertThat(tableAfter(section, "### Published by the paper, Table II: p99 latency (ms), single instance"))
			.contains("| 1 | 203.918 | 7442 | 17749 |", "| 5 | 19.166 | 55.95 | 426.78 |",
					"| 10 | 4.741 | 35.356 | 205.427 |");
		assertThat(tableAfter(section, "### Published by the paper, Table III: max latency (ms), three instances"))
			.contains("| 5 | 36.346 | 29.725 | 52.948 |");
		assertThat(tableAfter(section, "### Published by the paper, Table IV: p99 latency (ms), three instances"))
			.contains("| 5 | 6.227 | 13.279 | 18.513 |", "| 10 | 7.111 | 18.173 | 55.855 |");
	}

	@Test
	void paperReportInHtmlShowsThePapersTablesInAPublishedSection() throws IOException {
		render("paper");
		Document page = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));

		Element section = page.getElementById("published-000");
		assertThat(section).isNotNull();
		assertThat(section.select("h2").text()).isEqualTo("Published figures: " + PAPER_TITLE);
		assertThat(section.select(".flag").text()).isEqualTo("published figures, for comparison only");
		assertThat(section.select("table caption").eachText()).hasSize(4)
			.allMatch((caption) -> caption.startsWith("Published by the paper, Table "));
		assertThat(row(section, "Table I:", "1")).containsExactly("1", "438.966", "9387", "19433");
		assertThat(row(section, "Table II:", "1")).containsExactly("1", "203.918", "7442", "17749");
		assertThat(row(section, "Table IV:", "5")).containsExactly("5", "6.227", "13.279", "18.513");
		// after every topology of ours
		assertThat(page.select("main > section").last()).isSameAs(section);
		assertThat(page.select("section.topology")).hasSize(2);
	}

	@Test
	void publishedFiguresStayOutOfOurTablesAndTheRecommendation() throws IOException {
		List<Recommendation> paper = render("paper");
		Document page = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));
		String yaml = Files.readString(this.runDir.resolve("recommended-application.yml"));

		assertThat(page.select("section.topology").text()).doesNotContain("19433", "438.966", "Published");
		assertThat(yaml).doesNotContain("19433", "Published");

		Path quickRun = Files.createDirectories(this.runDir.resolve("quick"));
		ReportFixture.writeResults(quickRun, "quick");
		assertThat(paper).isEqualTo(Report.regenerate(quickRun));
		assertThat(Files.readString(quickRun.resolve("recommended-application.yml"))).isEqualTo(yaml);
	}

	@Test
	void fullPresetReportHasNoPublishedSection() throws IOException {
		render("full");

		assertThat(Files.readString(this.runDir.resolve("report.md"))).doesNotContain("Published", "JOIV", "k6",
				"Acquire cost");
		Document page = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));
		assertThat(page.select("section.published, section.acquire-cost")).isEmpty();
		assertThat(page.text()).doesNotContain("Published figures");
	}

	@Test
	void blogReportShowsThePostsThroughputForEveryPoolSizeItTested() throws IOException {
		render("blog");
		String markdown = Files.readString(this.runDir.resolve("report.md"));

		assertThat(markdown).contains("## Published figures: Sizing connection pool",
				"| pool | throughput (requests/s) | the post's note |", "| 5 | 9751.3 |", "| 10 | 9947.3 |",
				"| 16 | 9938.4 |", "| 200 | 6147.4 |", "| 12 | – |", "| 32 | – |",
				"The text publishes no latency figures");
		assertThat(markdown).doesNotContain(PAPER_TITLE, "The anatomy of Connection Pooling");
		Document page = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));
		assertThat(page.select("#published-004 tbody tr td:first-child").eachText()).containsExactly("5", "10", "12",
				"16", "32", "200");
	}

	@Test
	void poolingReportShowsTheR2dbcConnectionPoolingAndPgBouncerArticlesFigures() throws IOException {
		render("pooling");
		String markdown = Files.readString(this.runDir.resolve("report.md"));

		assertThat(markdown).contains("## Published figures: Configuring Connection Pooling with Spring R2DBC",
				"Kamal, DEV Community", "| none | 140 | 2330 | 2.33s |",
				"| R2DBC pool, initial-size 50, max-size 100 | 480 | 668 | 668ms |");
		assertThat(markdown).contains("## Published figures: The anatomy of Connection Pooling", "Vlad Mihalcea",
				"| min | 74.551414 | 0.002633 |", "| max | 146.69324 | 125.528047 |", "| mean | 78.216549 | 0.1289 |",
				"| stddev | 5.9438335 | 3.969438 |", "| median | 76.15044 | 0.003218 |");
		assertThat(markdown).contains("## Published figures: Improve database performance with connection pooling",
				"| PostgreSQL directly | 10 | 486 |",
				"| through pgbouncer, transaction pooling, default_pool_size 25 | 10 | 566 |");
		assertThat(markdown.indexOf("The anatomy of Connection Pooling"))
			.isLessThan(markdown.indexOf("Configuring Connection Pooling with Spring R2DBC"));
		Document page = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));
		assertThat(page.select("section.published").eachAttr("id")).containsExactly("published-001", "published-003",
				"published-002");
	}

	@Test
	void presetNamesAreMatchedWhateverTheirCase() {
		assertThat(PublishedFigures.forPreset("PAPER")).containsExactly(PublishedFigures.JOIV);
		assertThat(PublishedFigures.forPreset("quick")).isEmpty();
		assertThat(PublishedFigures.forPreset(null)).isEmpty();
	}

	private List<Recommendation> render(String preset) throws IOException {
		ReportFixture.writeResults(this.runDir, preset);
		return Report.regenerate(this.runDir);
	}

	/** The Markdown table under a heading: up to the next blank line after it. */
	private static String tableAfter(String markdown, String heading) {
		int start = markdown.indexOf(heading);
		assertThat(start).as(heading).isNotNegative();
		int body = markdown.indexOf("\n\n", start) + 2;
		return markdown.substring(start, markdown.indexOf("\n\n", body));
	}

	private static List<String> row(Element section, String captionPart, String poolSize) {
		Element table = section.select("table")
			.stream()
			.filter((candidate) -> candidate.select("caption").text().contains(captionPart))
			.findFirst()
			.orElseThrow();
		return table.select("tbody tr")
			.stream()
			.map((tr) -> tr.select("td").eachText())
			.filter((cells) -> cells.get(0).equals(poolSize))
			.findFirst()
			.orElseThrow();
	}

}
