package org.poollab.bench.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

import org.poollab.bench.deciding.SloJudge;
import org.poollab.bench.model.QueueModel;
import org.poollab.bench.model.Usl;
import org.poollab.bench.results.CrossCheckResult;
import org.poollab.bench.results.SloSearch;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.text.Durations;

/**
 * The SLO search's report: report.md, report.html (the same sections, with the model's
 * curve against what was measured and the database's scalability drawn as static SVG, so
 * the page needs no script) and recommended-application.yml ({@link SloYaml}).
 */
final class SloReport {

	/** The model's table lists every pool size up to this one, and every measured one. */
	static final int TABLE_POOLS = 10;

	private SloReport() {
	}

	static void write(SweepResults results, Path runDir) throws IOException {
		SloAnswer answer = SloAnswer.of(results);
		Files.createDirectories(runDir);
		Files.writeString(runDir.resolve(Report.MARKDOWN), markdown(answer), StandardCharsets.UTF_8);
		Files.writeString(runDir.resolve(Report.HTML), html(answer), StandardCharsets.UTF_8);
		Files.writeString(runDir.resolve(Report.RECOMMENDED_YAML), SloYaml.render(answer), StandardCharsets.UTF_8);
	}

	/** What the console says at the end of an SLO search. */
	static void print(SweepResults results, PrintStream out) {
		SloAnswer answer = SloAnswer.of(results);
		out.println();
		out.println("SLO search: " + SloText.question(answer.search().asked()) + ".");
		out.println("Path: " + SloText.path(answer.search()) + ".");
		out.println("Answer: " + answer.search().conclusion());
		answer.confirmation().ifPresent((run) -> out.println("Confirmation: " + SloText.confirmation(answer) + "."));
		answer.plan().ifPresent((plan) -> {
			out.println("Fleet: " + SloText.budget(answer) + ".");
			SloText.fleetRows(answer, plan).forEach((row) -> out.println("  " + row));
			SloText.fleetAdvice(answer, plan).forEach(out::println);
		});
	}

	static String markdown(SloAnswer answer) {
		SloSearch search = answer.search();
		StringBuilder md = new StringBuilder("# HikariCP pool-sizing report: SLO search\n\n");
		md.append("**Question.** ").append(SloText.question(search.asked())).append(".\n\n");
		md.append("**Answer.** ").append(search.conclusion()).append("\n\n");
		md.append("**Confirmation.** ").append(SloText.confirmation(answer)).append(".\n\n");
		md.append("Measured on one instance at ")
			.append(search.rateRps())
			.append(" rps (")
			.append(SloText.rateReason(search.asked()))
			.append("), ")
			.append(SloText.conditions(answer))
			.append(".\n\n## Search path\n\n| # | pool | p99 ms | 95 % interval | verdict |\n|---|---|---|---|---|\n");
		int step = 0;
		for (SloSearch.Probe probe : search.path()) {
			md.append(String.format(Locale.ROOT, "| %d | %d | %s | %s | %s |%n", ++step, probe.poolSize(),
					Durations.ms(probe.p99Ms()), interval(probe), probe.verdict().replace("|", "/")));
		}
		md.append("\n## Queue model\n\n").append(SloText.model(search)).append(".\n\n");
		List<String[]> curve = curveRows(answer);
		if (!curve.isEmpty()) {
			md.append(
					"| pool | utilisation | P(wait) | predicted wait p99 ms | predicted p99 ms | measured p99 ms |\n");
			md.append("|---|---|---|---|---|---|\n");
			for (String[] row : curve) {
				md.append("| ").append(String.join(" | ", row)).append(" |\n");
			}
			md.append('\n').append(disagreement(answer)).append("\n");
		}
		md.append("\n## The database's scalability\n\n").append(scaling(search)).append("\n");
		answer.plan().ifPresent((plan) -> {
			md.append("\n## Fleet plan\n\n").append(SloText.budget(answer)).append(".\n\n```\n");
			SloText.fleetRows(answer, plan).forEach((row) -> md.append(row).append('\n'));
			md.append("```\n\n");
			SloText.fleetAdvice(answer, plan).forEach((advice) -> md.append(advice).append("\n\n"));
		});
		md.append("\n## " + Report.RECOMMENDED_YAML + "\n\n```yaml\n").append(SloYaml.render(answer)).append("```\n");
		return md.toString();
	}

	static String html(SloAnswer answer) {
		SloSearch search = answer.search();
		StringBuilder html = new StringBuilder(
				"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
		html.append("<title>HikariCP pool-sizing report: SLO search</title>\n<style>\n")
			.append("body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222}")
			.append("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:right}")
			.append("td:last-child{text-align:left}.answer{font-size:1.2rem;padding:1rem;border-left:.4rem solid #2a7;")
			.append("background:#f3faf6}pre{background:#f6f6f6;padding:1rem;overflow:auto}svg{background:#fff}\n")
			.append("</style>\n</head>\n<body>\n<main>\n<h1>HikariCP pool-sizing report: SLO search</h1>\n");
		html.append("<p class=\"question\"><strong>Question.</strong> ")
			.append(HtmlReport.escape(SloText.question(search.asked())))
			.append(".</p>\n<p class=\"answer\"><strong>Answer.</strong> ")
			.append(HtmlReport.escape(search.conclusion()))
			.append("</p>\n<p><strong>Confirmation.</strong> ")
			.append(HtmlReport.escape(SloText.confirmation(answer)))
			.append(".</p>\n<h2>Search path</h2>\n<table class=\"path\"><tr><th>#</th><th>pool</th><th>p99 ms</th>")
			.append("<th>95 % interval</th><th>verdict</th></tr>\n");
		int step = 0;
		for (SloSearch.Probe probe : search.path()) {
			html.append(String.format(Locale.ROOT, "<tr><td>%d</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td></tr>%n",
					++step, probe.poolSize(), Durations.ms(probe.p99Ms()), interval(probe),
					HtmlReport.escape(probe.verdict())));
		}
		html.append("</table>\n<h2>Queue model against the measurements</h2>\n<p>")
			.append(HtmlReport.escape(SloText.model(search)))
			.append(".</p>\n");
		if (search.model() != null) {
			html.append(modelCurve(search, search.model().queue()));
			html.append("<p>").append(HtmlReport.escape(disagreement(answer))).append("</p>\n");
		}
		html.append("<h2>The database's scalability</h2>\n<p>")
			.append(HtmlReport.escape(scaling(search)))
			.append("</p>\n");
		if (search.scaling() != null) {
			html.append(uslCurve(search.scaling()));
		}
		answer.plan().ifPresent((plan) -> {
			html.append("<h2>Fleet plan</h2>\n<p>")
				.append(HtmlReport.escape(SloText.budget(answer)))
				.append(".</p>\n<pre class=\"fleet\">");
			SloText.fleetRows(answer, plan).forEach((row) -> html.append(HtmlReport.escape(row)).append('\n'));
			html.append("</pre>\n");
			SloText.fleetAdvice(answer, plan)
				.forEach((advice) -> html.append("<p>").append(HtmlReport.escape(advice)).append("</p>\n"));
		});
		html.append("<h2>" + Report.RECOMMENDED_YAML + "</h2>\n<pre class=\"yaml\">")
			.append(HtmlReport.escape(SloYaml.render(answer)))
			.append("</pre>\n</main>\n</body>\n</html>\n");
		return html.toString();
	}

	/**
	 * The model's p99 at every pool size up to the largest measured, through the measured
	 * p99s.
	 */
	private static String modelCurve(SloSearch search, QueueModel queue) {
		int largest = Math.max(2, search.highestPool());
		return SloChart.svg("model-curve", "pool size", "p99 ms", largest,
				(pool) -> queue.predict((int) Math.max(1, Math.round(pool))).latencyP99Ms(),
				search.path().stream().map((probe) -> new double[] { probe.poolSize(), probe.p99Ms() }).toList(),
				search.asked().p99ObjectiveMs());
	}

	/** The Universal Scalability Law's fit through the database's measured throughput. */
	private static String uslCurve(SloSearch.Scaling scaling) {
		Usl usl = scaling.usl();
		return SloChart.svg("usl", "connections", "transactions/s",
				scaling.samples().stream().mapToInt(Usl.Sample::connections).max().orElse(1), usl::throughput,
				scaling.samples()
					.stream()
					.map((sample) -> new double[] { sample.connections(), sample.perSecond() })
					.toList(),
				Double.NaN);
	}

	private static String interval(SloSearch.Probe probe) {
		return (probe.p99Interval() != null)
				? Durations.ms(probe.p99Interval().lowMs()) + "-" + Durations.ms(probe.p99Interval().highMs()) : "-";
	}

	/** The model at every pool size the search measured, beside what it measured. */
	private static List<String[]> curveRows(SloAnswer answer) {
		SloSearch search = answer.search();
		List<String[]> rows = new ArrayList<>();
		if (search.model() == null) {
			return rows;
		}
		QueueModel queue = search.model().queue();
		IntStream
			.concat(IntStream.rangeClosed(1, Math.min(TABLE_POOLS, search.highestPool())),
					search.path().stream().mapToInt(SloSearch.Probe::poolSize))
			.distinct()
			.sorted()
			.forEach((pool) -> {
				QueueModel.Prediction predicted = queue.predict(pool);
				double measured = search.path()
					.stream()
					.filter((probe) -> probe.poolSize() == pool)
					.mapToDouble(SloSearch.Probe::p99Ms)
					.findFirst()
					.orElse(Double.NaN);
				rows.add(new String[] { String.valueOf(pool),
						String.format(Locale.ROOT, "%.3f", predicted.utilisation()),
						String.format(Locale.ROOT, "%.4f", predicted.probabilityOfWaiting()),
						Durations.ms(predicted.waitP99Ms()), Durations.ms(predicted.latencyP99Ms()),
						Double.isNaN(measured) ? "-" : Durations.ms(measured) });
			});
		return rows;
	}

	/**
	 * Where the model and the measurements disagree: a measured p99 that does not
	 * {@link CrossCheckResult#agree agree} with the predicted one (the lab's cross-check
	 * tolerance).
	 */
	static String disagreement(SloAnswer answer) {
		SloSearch search = answer.search();
		if (search.model() == null) {
			return "";
		}
		QueueModel queue = search.model().queue();
		List<String> above = new ArrayList<>();
		List<String> below = new ArrayList<>();
		for (SloSearch.Probe probe : search.path()) {
			double predicted = queue.predict(probe.poolSize()).latencyP99Ms();
			double measured = probe.p99Ms();
			if (!CrossCheckResult.agree(measured, predicted)) {
				(measured > predicted ? above : below)
					.add(String.format(Locale.ROOT, "pool %d (predicted %s ms, measured %s ms%s)", probe.poolSize(),
							Durations.ms(predicted), Durations.ms(measured),
							probe.verdict().startsWith(SloJudge.REFUTED) ? " on a fresh instance" : ""));
			}
		}
		if (above.isEmpty() && below.isEmpty()) {
			return "The model agrees with every measured pool size (within " + CrossCheckResult.tolerance()
					+ " of the measured p99).";
		}
		List<String> sentences = new ArrayList<>();
		if (!above.isEmpty()) {
			sentences.add("Slower than the model at " + String.join(", ", above)
					+ ": holds stretched beyond the model's (the service shares the cores with the load generator and the database here; a fresh instance compiles and grows its heap while it serves).");
		}
		if (!below.isEmpty()) {
			sentences.add("Faster than the model at " + String.join(", ", below)
					+ ": its base p99 (the largest pool's window) or its hold time, an upper one of two lower bounds, overstates this window's.");
		}
		sentences.add("Where they disagree, the measurements decide.");
		return String.join(" ", sentences);
	}

	private static String scaling(SloSearch search) {
		if (search.scaling() == null) {
			return "Not measured.";
		}
		SloSearch.Scaling scaling = search.scaling();
		StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
				"The service's transaction run back to back on the database alone, %s. Universal Scalability Law fit: lambda %.0f/s, alpha %.4f (contention), beta %.6f (coherency); peak concurrency N* = %s. Hold on one connection: %.3f ms mean, cv² %.2f.",
				scaling.samples()
					.stream()
					.map((sample) -> String.format(Locale.ROOT, "%d: %.0f/s", sample.connections(), sample.perSecond()))
					.toList(),
				scaling.usl().lambda(), scaling.usl().alpha(), scaling.usl().beta(),
				SloText.peak(scaling.peakConnections()), scaling.holdMeanMs(), scaling.holdCv2()));
		List<Usl.Sample> samples = scaling.samples();
		if (samples.size() >= 2 && samples.get(0).connections() == 1 && samples.get(1).connections() == 2
				&& samples.get(1).perSecond() > 2 * samples.get(0).perSecond()) {
			text.append(String.format(Locale.ROOT,
					" Two connections did more than twice one's work (%.0f against %.0f/s): one connection alone waits for idle cores to wake at every round trip, which the law (alpha and beta at least 0) cannot describe, so its fit is rough below that.",
					samples.get(1).perSecond(), samples.get(0).perSecond()));
		}
		return text.toString();
	}

}
