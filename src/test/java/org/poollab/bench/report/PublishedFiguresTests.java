package org.poollab.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.poollab.bench.deciding.Recommendation;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The source texts' published figures in reports of the presets that reproduce them, kept
 * apart from what the lab measured.
 */
class PublishedFiguresTests {

	private static final String PAPER_TITLE = "A Study of Database Connection Pool in Microservice Architecture";

	@TempDir
	Path runDir;

	@Test
	void paperReportInMarkdownPutsTablesIAndIIAfterOurSingleInstanceAndIIIAndIVAfterOurThree() throws IOException {
		render("paper");
		String markdown = Files.readString(this.runDir.resolve("report.md"));

		String published = "### Published figures: " + PAPER_TITLE;
		assertThat(markdown.split(Pattern.quote(published), -1)).hasSize(3);
		String single = between(markdown, "## Topology single", "## Topology multi");
		String multi = markdown.substring(markdown.indexOf("## Topology multi"));
		// right after our own tables in the paper's shape, before our detail table
		assertThat(single.indexOf(published)).isGreaterThan(single.indexOf("### p99 latency (ms)"))
			.isLessThan(single.indexOf("### Per point"));
		assertThat(multi.indexOf(published)).isGreaterThan(multi.indexOf("### p99 latency (ms)"))
			.isLessThan(multi.indexOf("### Per point"));
		assertThat(single)
			.contains("Table I: max latency (ms), single instance", "Table II: p99 latency (ms), single instance")
			.doesNotContain("Table III", "Table IV");
		assertThat(multi)
			.contains("Table III: max latency (ms), three instances", "Table IV: p99 latency (ms), three instances")
			.doesNotContain("Table I:", "Table II:");
		// labelled as published with their source at both places; the set-up told once
		assertThat(single).contains("International Journal on Informatics Visualization (JOIV), 2022",
				PublishedFigures.LABEL, "Vegeta", "Arm64v8", "GOMAXPROCS = 1");
		assertThat(multi)
			.contains("International Journal on Informatics Visualization (JOIV), 2022", PublishedFigures.LABEL,
					PublishedFigures.SEE_ABOVE)
			.doesNotContain("Arm64v8");
		// Table I, single instance, pool 1: 438.966 / 9387 / 19433 ms at 500 / 1000 /
		// 2000 rps
		assertThat(tableAfter(single, "### Published by the paper, Table I: max latency (ms), single instance"))
			.contains("| 1 | 438.966 | 9387 | 19433 |", "| 10 | 24.278 | 119.675 | 499.172 |");
		assertThat(tableAfter(single, "### Published by the paper, Table II: p99 latency (ms), single instance"))
			.contains("| 1 | 203.918 | 7442 | 17749 |", "| 5 | 19.166 | 55.95 | 426.78 |",
					"| 10 | 4.741 | 35.356 | 205.427 |");
		assertThat(tableAfter(multi, "### Published by the paper, Table III: max latency (ms), three instances"))
			.contains("| 5 | 36.346 | 29.725 | 52.948 |");
		assertThat(tableAfter(multi, "### Published by the paper, Table IV: p99 latency (ms), three instances"))
			.contains("| 5 | 6.227 | 13.279 | 18.513 |", "| 10 | 7.111 | 18.173 | 55.855 |");
		assertThat(markdown).doesNotContain("\n## Published figures");
	}

	@Test
	void paperReportInHtmlShowsThePapersTablesInPublishedBlocksAfterOurPaperTables() throws IOException {
		render("paper");
		Document page = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));

		Element single = page.getElementById("published-joiv-2022-single");
		Element multi = page.getElementById("published-joiv-2022-multi");
		assertThat(single).isNotNull();
		assertThat(multi).isNotNull();
		for (Element block : List.of(single, multi)) {
			assertThat(block.select("h3").text()).isEqualTo("Published figures: " + PAPER_TITLE);
			assertThat(block.select(".flag").text()).isEqualTo("published figures, for comparison only");
			assertThat(block.select("table caption").eachText()).hasSize(2)
				.allMatch((caption) -> caption.startsWith("Published by the paper, Table "));
		}
		assertThat(row(single, "Table I:", "1")).containsExactly("1", "438.966", "9387", "19433");
		assertThat(row(single, "Table II:", "1")).containsExactly("1", "203.918", "7442", "17749");
		assertThat(row(multi, "Table IV:", "5")).containsExactly("5", "6.227", "13.279", "18.513");
		// next to our tables in the paper's shape
		assertThat(page.select("#topology-single > .paper-tables").first().nextElementSibling()).isSameAs(single);
		assertThat(page.select("#topology-multi > .paper-tables").first().nextElementSibling()).isSameAs(multi);
		assertThat(page.select("main > section.published")).isEmpty();
	}

	@Test
	void publishedFiguresStayOutOfOurTablesAndTheRecommendation() throws IOException {
		List<Recommendation> paper = render("paper");
		Document page = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));
		String yaml = Files.readString(this.runDir.resolve("recommended-application.yml"));

		page.select("section.published").remove();
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

		assertThat(between(markdown, "## Topology single", "## Topology multi")).contains(
				"### Published figures: Sizing connection pool", "| pool | throughput (requests/s) | the post's note |",
				"| 5 | 9751.3 |", "| 10 | 9947.3 |", "| 16 | 9938.4 |", "| 200 | 6147.4 |", "| 12 | – |", "| 32 | – |",
				"The text publishes no latency figures");
		assertThat(markdown).doesNotContain(PAPER_TITLE, "The anatomy of Connection Pooling");
		Document page = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));
		assertThat(page.select("#published-limvik-2023-single tbody tr td:first-child").eachText()).containsExactly("5",
				"10", "12", "16", "32", "200");
	}

	@Test
	void poolingReportShowsTheR2dbcConnectionPoolingAndPgBouncerArticlesFigures() throws IOException {
		render("pooling");
		String markdown = Files.readString(this.runDir.resolve("report.md"));

		// R2DBC's no pool vs pool beside our single instance (with and without a pool);
		// the others match no topology of this run and close the report
		assertThat(between(markdown, "## Topology single", "## Topology multi")).contains(
				"### Published figures: Configuring Connection Pooling with Spring R2DBC", "Kamal, DEV Community",
				"| none | 140 | 2330 | 2.33s |", "| R2DBC pool, initial-size 50, max-size 100 | 480 | 668 | 668ms |");
		assertThat(markdown).contains("## Published figures: The anatomy of Connection Pooling", "Vlad Mihalcea",
				"| min | 74.551414 | 0.002633 |", "| max | 146.69324 | 125.528047 |", "| mean | 78.216549 | 0.1289 |",
				"| stddev | 5.9438335 | 3.969438 |", "| median | 76.15044 | 0.003218 |");
		assertThat(markdown).contains("## Published figures: Improve database performance with connection pooling",
				"| PostgreSQL directly | 10 | 486 |",
				"| through pgbouncer, transaction pooling, default_pool_size 25 | 10 | 566 |");
		assertThat(markdown.indexOf("## Published figures: The anatomy of Connection Pooling"))
			.isGreaterThan(markdown.lastIndexOf("## Topology "))
			.isLessThan(markdown.indexOf("## Published figures: Improve database performance"));
		Document page = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));
		assertThat(page.select("section.published").eachAttr("id")).containsExactly("published-mahmud-2022-single",
				"published-mihalcea-2014", "published-stackoverflow-2020");
	}

	@Test
	void presetNamesAreMatchedWhateverTheirCase() {
		assertThat(PublishedFigures.forPreset("PAPER")).containsExactly(PublishedFigures.JOIV);
		assertThat(PublishedFigures.forPreset("quick")).isEmpty();
		assertThat(PublishedFigures.forPreset(null)).isEmpty();
	}

	@Test
	void everySourceInTheDataFileIsCitedByAuthorsYearAndALinkTheDocsReferencesGive() throws IOException {
		String references = Files.readString(Path.of("src/site/markdown/presets.md")).split("## References")[1];
		for (PublishedFigures.Source source : List.of(PublishedFigures.JOIV, PublishedFigures.ANATOMY,
				PublishedFigures.PGBOUNCER, PublishedFigures.R2DBC, PublishedFigures.BLOG)) {
			assertThat(source.citation().authors()).as(source.key()).isNotBlank();
			assertThat(source.key()).as("the short name ends in the year").endsWith("-" + source.citation().year());
			assertThat(references).as(source.key()).contains(source.citation().link());
			assertThat(source.tables()).as(source.key()).isNotEmpty();
		}
	}

	private List<Recommendation> render(String preset) throws IOException {
		ReportFixture.writeResults(this.runDir, preset);
		return Report.regenerate(this.runDir);
	}

	private static String between(String markdown, String from, String to) {
		return markdown.substring(markdown.indexOf(from), markdown.indexOf(to));
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
