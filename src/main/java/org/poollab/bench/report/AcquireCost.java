package org.poollab.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.DoubleFunction;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.poollab.bench.acquire.AcquireCostBenchmark;
import org.poollab.bench.acquire.AcquireCostBenchmark.Result;
import org.poollab.bench.acquire.AcquireCostBenchmark.Timing;
import org.poollab.bench.report.Table.Entry;
import org.poollab.bench.report.Table.Row;

/**
 * The "Acquire cost: pooled vs unpooled" section, shown when the run directory holds the
 * {@code acquire-cost.json} of {@link AcquireCostBenchmark}: what a pool saves on every
 * request, next to the pool sizes the sweep measured.
 *
 * @param result what the benchmark measured
 */
record AcquireCost(Result result) {

	/** What {@link AcquireCostBenchmark} writes into its run directory. */
	static final String FILE = "acquire-cost.json";

	static final String TITLE = "Acquire cost: pooled vs unpooled";

	/**
	 * The run's acquire cost, when the benchmark ran into it.
	 * @param runDir a run directory
	 * @return the benchmark's result; empty when the run has no {@value #FILE}
	 * @throws IOException when the file is there but cannot be read: a report silently
	 * without the section would hide that the benchmark's output is broken
	 */
	static Optional<AcquireCost> read(Path runDir) throws IOException {
		Path file = runDir.resolve(FILE);
		if (!Files.isRegularFile(file)) {
			return Optional.empty();
		}
		try (InputStream in = Files.newInputStream(file)) {
			return Optional.of(new AcquireCost(JsonMapper.builder().build().readValue(in, Result.class)));
		}
		catch (JacksonException ex) {
			throw new IOException(
					"Cannot read " + file + " (the acquire-cost benchmark's results): " + ex.getOriginalMessage(), ex);
		}
	}

	/**
	 * No pooling's median over HikariCP's; computed from the timings shown, so the ratio
	 * always matches the table.
	 */
	double medianRatio() {
		return ratio(this.result.unpooled().medianMs(), this.result.pooled().medianMs());
	}

	/** No pooling's mean over HikariCP's (the article's "600 times" is this ratio). */
	double meanRatio() {
		return ratio(this.result.unpooled().meanMs(), this.result.pooled().meanMs());
	}

	Table table() {
		return timings("Time per acquisition (ms)",
				List.of("statistic", "no pooling (ms)", "HikariCP, pool of " + this.result.poolSize() + " (ms)",
						"no pooling / HikariCP"),
				this.result.unpooled(), this.result.pooled(), (valueMs) -> String.format(Locale.ROOT, "%.4f", valueMs),
				true);
	}

	String description() {
		return String.format(Locale.ROOT,
				"%d connections opened and closed without a pool (%s), then %d borrowed and returned through a "
						+ "HikariCP pool of %d, full before the first (%s), each kind after %d unmeasured ones. "
						+ "Database: %s. Started %s.",
				this.result.acquisitions(), this.result.unpooled().method(), this.result.acquisitions(),
				this.result.poolSize(), this.result.pooled().method(), this.result.warmupAcquisitions(),
				this.result.database(), this.result.startedAt());
	}

	String ratios() {
		return "HikariCP was " + times(medianRatio()) + " times faster by median and " + times(meanRatio())
				+ " times by mean.";
	}

	void markdown(StringBuilder md, String preset) {
		md.append("\n## ").append(TITLE).append("\n\n").append(description()).append("\n\n");
		MarkdownReport.table(md, table());
		md.append(ratios()).append(followedBy(preset)).append('\n');
	}

	void html(StringBuilder html, String preset) {
		html.append("<section class=\"acquire-cost\" id=\"acquire-cost\">\n<h2>")
			.append(TITLE)
			.append("</h2>\n<p>")
			.append(HtmlReport.escape(description()))
			.append("</p>\n");
		HtmlReport.table(html, table(), "grid");
		html.append("<p>").append(HtmlReport.escape(ratios() + followedBy(preset))).append("</p>\n</section>\n");
	}

	/**
	 * Two timings side by side, one row per statistic, in the article's order.
	 * @param caption the table's caption
	 * @param header four columns with ratios, three without
	 * @param unpooled opening a connection each time
	 * @param pooled borrowing one
	 * @param ms how a figure in milliseconds is written
	 * @param withRatios whether to add the unpooled / pooled ratio of the mean and the
	 * median
	 * @return the table
	 */
	static Table timings(String caption, List<String> header, Timing unpooled, Timing pooled, DoubleFunction<String> ms,
			boolean withRatios) {
		// only the mean and median ratios say what a pool saves; min, max and stddev
		// ratios would compare outliers
		String noRatio = withRatios ? "–" : null;
		List<Row> rows = new ArrayList<>();
		rows.add(row("min", unpooled.minMs(), pooled.minMs(), ms, noRatio));
		rows.add(row("max", unpooled.maxMs(), pooled.maxMs(), ms, noRatio));
		rows.add(row("mean", unpooled.meanMs(), pooled.meanMs(), ms,
				withRatios ? times(ratio(unpooled.meanMs(), pooled.meanMs())) : null));
		rows.add(row("stddev", unpooled.stddevMs(), pooled.stddevMs(), ms, noRatio));
		rows.add(row("median", unpooled.medianMs(), pooled.medianMs(), ms,
				withRatios ? times(ratio(unpooled.medianMs(), pooled.medianMs())) : null));
		return new Table(caption, header, rows, 1, header.size());
	}

	private static Row row(String statistic, double unpooledMs, double pooledMs, DoubleFunction<String> ms,
			@Nullable String ratio) {
		List<Entry> entries = new ArrayList<>(
				List.of(Entry.of(statistic), Entry.of(ms.apply(unpooledMs)), Entry.of(ms.apply(pooledMs))));
		if (ratio != null) {
			entries.add(Entry.of(ratio));
		}
		return new Row(entries, false);
	}

	private static double ratio(double unpooledMs, double pooledMs) {
		return (pooledMs > 0) ? unpooledMs / pooledMs : Double.NaN;
	}

	private static String times(double ratio) {
		return Double.isNaN(ratio) ? "–" : String.format(Locale.ROOT, "%,.0f", ratio);
	}

	private static String followedBy(String preset) {
		return PublishedFigures.forPreset(preset).contains(PublishedFigures.ANATOMY)
				? " The article this experiment comes from published its own table, shown next, for comparison only."
				: "";
	}

}
