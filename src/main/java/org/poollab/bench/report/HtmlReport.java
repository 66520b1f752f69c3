package org.poollab.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.web.util.HtmlUtils;

import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.report.Table.Entry;
import org.poollab.bench.report.Table.Row;
import org.poollab.bench.results.SweepResults;

/**
 * {@code report.html}: the tables plus four charts per topology. Chartist (from its
 * WebJar) is inlined with its stylesheet so the file opens offline and can be mailed or
 * archived on its own; the page only hands Chartist the data and its options, which
 * {@link Charts} (by pool size) and {@link SecondCharts} (second by second) put together.
 */
final class HtmlReport {

	private static final String CHARTIST = "META-INF/resources/webjars/chartist/%s/dist/%s";

	/** Said in provisional verdicts; kept whole when a line wraps. */
	private static final String REPEATS_OPTION = "-Dbench.repeats=3";

	private HtmlReport() {
	}

	static String render(SweepResults results, List<Section> sections, Optional<AcquireCost> acquireCost) {
		StringBuilder html = new StringBuilder();
		head(html, results, sections);
		verdicts(html, results, sections);
		List<Map<String, Object>> charts = new ArrayList<>();
		List<Charts.ChartSpec> specs = Charts.specs(AcquireBuckets.ofService());
		PublishedFigures.Placement published = PublishedFigures.place(results.preset(), sections);
		for (Section section : sections) {
			topology(html, section, section.contention().isPresent() ? Charts.withP50(specs) : specs, charts);
			published.after(section).forEach((block) -> PublishedFigures.html(html, block));
			rest(html, section);
		}
		for (SideBySide.View view : SideBySide.views(sections)) {
			html.append("<section class=\"")
				.append(view.cssClass())
				.append("\">\n<h2>")
				.append(view.heading())
				.append("</h2>\n");
			table(html, view.table(), "detail");
			html.append("</section>\n");
		}
		acquireCost.ifPresent((cost) -> cost.html(html, results.preset()));
		published.atEnd().forEach((block) -> PublishedFigures.html(html, block));
		html.append("</main>\n");
		scripts(html, charts);
		return html.toString();
	}

	/** The document's head, with Chartist's stylesheet inlined, and the page's header. */
	private static void head(StringBuilder html, SweepResults results, List<Section> sections) {
		html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
		html.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
		html.append("<title>").append(Header.title(sections)).append("</title>\n");
		html.append("<style>\n").append(chartist("chartist.min.css")).append("\n</style>\n");
		html.append("<style>\n").append(resource("report.css")).append("</style>\n");
		html.append("</head>\n<body>\n<main>\n");
		html.append("<header>\n<h1>")
			.append(Header.title(sections))
			.append("</h1>\n<p class=\"meta\">")
			.append(escape(Header.describe(results).replace("`", "")))
			.append("</p>\n</header>\n");
	}

	/** The answer cards of every topology, how they are made, and a link to each. */
	private static void verdicts(StringBuilder html, SweepResults results, List<Section> sections) {
		html.append("<section class=\"verdicts\" aria-label=\"Recommendation\">\n");
		for (Section section : sections) {
			verdictCard(html, section, true);
		}
		html.append("</section>\n");
		html.append("<p class=\"rule\"><strong>How the recommendation is made.</strong> ")
			.append(escape(Recommendation.RULE + MarkdownReport.objective(results)))
			.append("</p>\n");

		html.append("<nav class=\"toc\">Topologies: ");
		for (Section section : sections) {
			html.append("<a href=\"#topology-")
				.append(escape(section.grid().key()))
				.append("\">")
				.append(escape(section.grid().name()))
				.append("</a> ");
		}
		html.append("</nav>\n");
	}

	/**
	 * A topology's section up to its paper-shaped tables: verdict, cross-checks, the
	 * charts (their data added to {@code charts}) and the latency grids. Left open, so
	 * that published figures can follow the grids.
	 */
	private static void topology(StringBuilder html, Section section, List<Charts.ChartSpec> specs,
			List<Map<String, Object>> charts) {
		html.append("<section class=\"topology\" id=\"topology-")
			.append(escape(section.grid().key()))
			.append("\">\n<h2>")
			.append(escape(section.title()))
			.append("</h2>\n");
		verdictCard(html, section, false);
		table(html, section.crossChecks(), "cross-checks");
		html.append("<div class=\"charts\">\n");
		for (Charts.ChartSpec spec : specs) {
			String id = "chart-" + section.grid().key() + "-" + spec.key();
			Charts.chartFigure(html, section.grid(), spec, id);
			charts.add(Charts.chartData(section, spec, id));
		}
		html.append("</div>\n");
		SecondCharts.timeSeries(html, charts, section);
		html.append("<p class=\"note\">Shaded cells (†) did not sustain their rate; hover them for the reason. "
				+ "Numbered marks refer to the notes under each table. The highlighted row is the recommended "
				+ "pool size. Latencies cover successful requests only.")
			.append(section.grid().hasRepeats() ? " " + escape(Section.REPEATS_NOTE) : "")
			.append("</p>\n");
		html.append("<div class=\"paper-tables\">\n");
		table(html, section.maxLatency(), "grid");
		table(html, section.p99Latency(), "grid");
		html.append("</div>\n");
	}

	/**
	 * The rest of a topology's section: per-point tables, the USL figure, points left
	 * out.
	 */
	private static void rest(StringBuilder html, Section section) {
		section.detail().forEach((table) -> table(html, table, "detail"));
		section.contention()
			.flatMap((contention) -> contention.svg("usl-" + section.grid().key()))
			.ifPresent((svg) -> html.append("<figure class=\"usl\">")
				.append(svg)
				.append("<figcaption>Throughput against the fleet's connections at the highest rate, with the "
						+ "Universal Scalability Law fitted through it; the dashed vertical line is N* (")
				.append(escape(section.contention().get().peak()))
				.append(").</figcaption></figure>\n"));
		if (!section.excluded().rows().isEmpty()) {
			table(html, section.excluded(), "excluded");
		}
		html.append("</section>\n");
	}

	/** Chartist inlined, then the charts' data and the script that draws them. */
	private static void scripts(StringBuilder html, List<Map<String, Object>> charts) {
		html.append("<script>\n").append(chartist("chartist.min.js")).append("\n</script>\n");
		// "</" would end the script element early if a topology name or outcome carried
		// it
		String json = JsonMapper.builder().build().writeValueAsString(charts).replace("</", "<\\/");
		html.append("<script>\nconst CHARTS = ").append(json).append(";\n").append(resource("report.js"));
		html.append("</script>\n</body>\n</html>\n");
	}

	private static void verdictCard(StringBuilder html, Section section, boolean brief) {
		Recommendation recommendation = section.recommendation();
		String kind = recommendation.verdict().conclusive()
				? (recommendation.verdict() == Recommendation.Verdict.CHOSEN ? "chosen" : "flat") : "none";
		html.append("<div class=\"verdict verdict-").append(kind).append(brief ? " answer-card" : "").append("\">\n");
		if (brief) {
			html.append("<div class=\"verdict-topology\"><a href=\"#topology-")
				.append(escape(section.grid().key()))
				.append("\">")
				.append(escape(section.grid().name()))
				.append("</a> · ")
				.append(section.grid().instances())
				.append((section.grid().instances() == 1) ? " instance" : " instances")
				.append("</div>\n");
		}
		html.append("<div class=\"verdict-headline\">");
		if (recommendation.poolSize().isPresent()) {
			html.append("<span class=\"verdict-key\">")
				.append(section.grid().poolSizeKey())
				.append("</span> <span class=\"verdict-value\">")
				.append(recommendation.poolSize().getAsInt())
				.append("</span>");
			if (recommendation.verdict() == Recommendation.Verdict.FLAT) {
				html.append(" <span class=\"flag\">not a measured knee</span>");
			}
			if (recommendation.provisional()) {
				html.append(" <span class=\"flag\">provisional: one run per point</span>");
			}
		}
		else {
			html.append("<span class=\"verdict-none\">")
				.append(escape(Header.headline(recommendation)))
				.append("</span>");
		}
		html.append("</div>\n");
		if (brief) {
			html.append("<dl class=\"answer\">\n");
			for (AnswerCard.Line line : AnswerCard.of(section).lines()) {
				html.append("<dt>")
					.append(escape(line.label()))
					.append("</dt><dd>")
					.append(escape(line.text()))
					.append("</dd>\n");
			}
			html.append("</dl>\n");
		}
		else {
			html.append("<p>").append(commands(escape(recommendation.summary()))).append("</p>\n");
		}
		if (!brief && !recommendation.caveats().isEmpty()) {
			html.append("<ul class=\"caveats\">\n");
			for (String caveat : recommendation.caveats()) {
				html.append("<li>").append(escape(caveat)).append("</li>\n");
			}
			html.append("</ul>\n");
		}
		html.append("</div>\n");
	}

	static void table(StringBuilder html, Table table, String kind) {
		html.append("<div class=\"table-wrap ")
			.append(kind)
			.append("\">\n<table class=\"")
			.append(kind)
			.append("\">\n<caption>")
			.append(escape(table.caption()))
			.append("</caption>\n<thead><tr>");
		for (int i = 0; i < table.header().size(); i++) {
			html.append((table.numeric(i)) ? "<th class=\"num\">" : "<th>")
				.append(escape(table.header().get(i)))
				.append("</th>");
		}
		html.append("</tr></thead>\n<tbody>\n");
		for (Row row : table.rows()) {
			html.append(row.highlighted() ? "<tr class=\"recommended\">" : "<tr>");
			for (int i = 0; i < row.entries().size(); i++) {
				cell(html, table, row.entries().get(i), table.numeric(i));
			}
			html.append("</tr>\n");
		}
		html.append("</tbody>\n</table>\n");
		tableNotes(html, table);
		html.append("</div>\n");
	}

	/**
	 * One {@code td}: shaded with the warning as its tooltip when the entry has one, a
	 * link when it has an address, its footnote's number as a mark.
	 */
	private static void cell(StringBuilder html, Table table, Entry entry, boolean numeric) {
		List<String> classes = new ArrayList<>();
		if (numeric) {
			classes.add("num");
		}
		if (entry.warning() != null) {
			classes.add("miss");
		}
		html.append("<td");
		if (!classes.isEmpty()) {
			html.append(" class=\"").append(String.join(" ", classes)).append('"');
		}
		if (entry.warning() != null) {
			html.append(" title=\"").append(escape(entry.warning())).append('"');
		}
		html.append('>');
		if (entry.href() != null) {
			html.append("<a href=\"")
				.append(escape(entry.href()))
				.append("\">")
				.append(escape(entry.text()))
				.append("</a>");
		}
		else {
			html.append(escape(entry.text()));
		}
		if (entry.warning() != null) {
			html.append(" †");
		}
		int footnote = table.footnoteNumber(entry);
		String note = entry.footnote();
		if (footnote > 0 && note != null) {
			html.append("<sup class=\"fn\" title=\"")
				.append(escape(note))
				.append("\">")
				.append(footnote)
				.append("</sup>");
		}
		html.append("</td>");
	}

	/** The numbered footnotes and the column notes under a table, when it has any. */
	private static void tableNotes(StringBuilder html, Table table) {
		List<String> footnotes = table.footnotes();
		if (!footnotes.isEmpty() || !table.notes().isEmpty()) {
			html.append("<div class=\"table-notes\">\n");
			for (int i = 0; i < footnotes.size(); i++) {
				html.append("<p class=\"footnote\"><sup>")
					.append(i + 1)
					.append("</sup> ")
					.append(escape(footnotes.get(i)))
					.append("</p>\n");
			}
			for (String note : table.notes()) {
				html.append("<p class=\"column-note\">").append(escape(note)).append("</p>\n");
			}
			html.append("</div>\n");
		}
	}

	/**
	 * The command-line option in a sentence as code, so a line never breaks at its "-".
	 */
	private static String commands(String escaped) {
		return escaped.replace(REPEATS_OPTION, "<code>" + REPEATS_OPTION + "</code>");
	}

	static String escape(String text) {
		return HtmlUtils.htmlEscape(text, StandardCharsets.UTF_8.name());
	}

	private static String chartist(String file) {
		Properties webjar = new Properties();
		try (InputStream in = resourceStream("META-INF/maven/org.webjars.npm/chartist/pom.properties")) {
			webjar.load(in);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return read(CHARTIST.formatted(webjar.getProperty("version"), file));
	}

	private static String resource(String name) {
		return read("org/poollab/bench/report/" + name);
	}

	private static String read(String path) {
		try (InputStream in = resourceStream(path)) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static InputStream resourceStream(String path) {
		InputStream in = HtmlReport.class.getClassLoader().getResourceAsStream(path);
		if (in == null) {
			throw new IllegalStateException("Missing " + path
					+ " on the classpath; the report needs the Chartist WebJar (org.webjars.npm:chartist)");
		}
		return in;
	}

}
