package org.poollab.bench.report;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.report.Table.Entry;
import org.poollab.bench.report.Table.Row;
import org.poollab.bench.results.SweepResults;

/** {@code report.md}: the tables for reading in a terminal or a pull request. */
final class MarkdownReport {

	private MarkdownReport() {
	}

	static String render(SweepResults results, List<Section> sections, Optional<AcquireCost> acquireCost) {
		StringBuilder md = new StringBuilder();
		md.append("# ").append(Header.title(sections)).append("\n\n");
		md.append(Header.describe(results)).append("\n\n");
		md.append("## Answer\n");
		for (Section section : sections) {
			AnswerCard card = AnswerCard.of(section);
			md.append("\n### ").append(card.title()).append("\n\n");
			for (AnswerCard.Line line : card.lines()) {
				md.append("- **").append(line.label()).append("**: ").append(line.text()).append('\n');
			}
		}
		md.append("\n**Rule.** ").append(Recommendation.RULE).append(objective(results)).append("\n\n");
		md.append("Cells marked † did not sustain their rate; the detail table says why. ")
			.append("Numbered marks (¹ ²) refer to the notes under each table. ")
			.append("Rows in **bold** are the recommended pool size. Latencies cover successful requests only.\n");
		PublishedFigures.Placement published = PublishedFigures.place(results.preset(), sections);
		for (Section section : sections) {
			md.append("\n## ").append(section.title()).append("\n\n");
			Recommendation recommendation = section.recommendation();
			md.append("**").append(Header.headline(recommendation)).append(".** ").append(recommendation.summary());
			md.append("\n\n");
			for (String caveat : recommendation.caveats()) {
				md.append("- ").append(caveat).append('\n');
			}
			if (!recommendation.caveats().isEmpty()) {
				md.append('\n');
			}
			table(md, section.crossChecks());
			if (section.grid().hasRepeats()) {
				md.append(Section.REPEATS_NOTE).append("\n\n");
			}
			table(md, section.maxLatency());
			table(md, section.p99Latency());
			published.after(section).forEach((block) -> PublishedFigures.markdown(md, block));
			section.detail().forEach((table) -> table(md, table));
			if (!section.excluded().rows().isEmpty()) {
				table(md, section.excluded());
			}
		}
		for (SideBySide.View view : SideBySide.views(sections)) {
			md.append("\n## ").append(view.heading()).append("\n\n");
			table(md, view.table());
		}
		acquireCost.ifPresent((cost) -> cost.markdown(md, results.preset()));
		published.atEnd().forEach((block) -> PublishedFigures.markdown(md, block));
		return md.toString();
	}

	static void table(StringBuilder md, Table table) {
		md.append("### ").append(table.caption()).append("\n\n");
		md.append("| ").append(String.join(" | ", table.header())).append(" |\n");
		md.append("|");
		for (int i = 0; i < table.header().size(); i++) {
			md.append((table.numeric(i)) ? " ---: |" : " --- |");
		}
		md.append('\n');
		for (Row row : table.rows()) {
			md.append("| ")
				.append(row.entries()
					.stream()
					.map((entry) -> entry(table, entry, row.highlighted()))
					.collect(Collectors.joining(" | ")))
				.append(" |\n");
		}
		md.append('\n');
		List<String> footnotes = table.footnotes();
		for (int i = 0; i < footnotes.size(); i++) {
			md.append("- ").append(superscript(i + 1)).append(' ').append(footnotes.get(i)).append('\n');
		}
		for (String note : table.notes()) {
			md.append("- ").append(note).append('\n');
		}
		if (!footnotes.isEmpty() || !table.notes().isEmpty()) {
			md.append('\n');
		}
	}

	private static String entry(Table table, Entry entry, boolean highlighted) {
		String text = entry.text().replace("|", "\\|");
		if (entry.href() != null) {
			text = "[" + text + "](" + entry.href() + ")";
		}
		if (entry.warning() != null) {
			text += " †";
		}
		int footnote = table.footnoteNumber(entry);
		if (footnote > 0) {
			text += " " + superscript(footnote);
		}
		return highlighted ? "**" + text + "**" : text;
	}

	/** Footnote marks that read in a terminal as well as rendered: ¹, ², ..., ¹². */
	static String superscript(int number) {
		return String.valueOf(number)
			.chars()
			.mapToObj((digit) -> String.valueOf("⁰¹²³⁴⁵⁶⁷⁸⁹".charAt(digit - '0')))
			.collect(Collectors.joining());
	}

	static String objective(SweepResults results) {
		return (results.p99ObjectiveMs() > 0)
				? String.format(Locale.ROOT, " The p99 objective of this sweep: %.0f ms.", results.p99ObjectiveMs())
				: " This sweep set no p99 objective.";
	}

}
