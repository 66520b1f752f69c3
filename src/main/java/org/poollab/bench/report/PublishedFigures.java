package org.poollab.bench.report;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToDoubleFunction;

import org.poollab.bench.acquire.AcquireCostBenchmark.Timing;
import org.poollab.bench.report.Table.Entry;
import org.poollab.bench.report.Table.Row;

/**
 * The figures the source texts (README, "What it measures") published, shown when a run's
 * preset reproduces a source's experiment: each table right after our own tables of the
 * topology it matches (the paper's Tables I–II after our single instance, III–IV after
 * our three instances), or at the end when it matches none we measured. They were
 * measured by others on other set-ups, so they sit in tables of their own, labelled with
 * their source, and never reach our tables or the recommendation. Every number is copied
 * from the source text itself (not from the README) and rendered as published.
 */
final class PublishedFigures {

	/** Said with every source, so no one mistakes its figures for ours. */
	static final String LABEL = "Published figures from this source, measured on its set-up, not by this lab: "
			+ "for comparison only, they take no part in the recommendation.";

	private static final String SINGLE = "single";

	private static final String MULTI = "multi";

	private static final String PGBOUNCER_TOPOLOGY = "pgbouncer";

	/** The rates of the JOIV paper's Tables I–IV, in their column order. */
	static final List<Integer> PAPER_RATES_RPS = List.of(500, 1000, 2000);

	/** The JOIV paper, Table I: maximum latency (ms), single instance. */
	static final List<PaperRow> PAPER_SINGLE_MAX_MS = List.of(new PaperRow(1, 438.966, 9387, 19433),
			new PaperRow(5, 64.758, 156.088, 1658), new PaperRow(10, 24.278, 119.675, 499.172));

	/**
	 * The JOIV paper, Table II: 99th percentile latency (ms), single instance. Pool 10 at
	 * 1000 rps is 35.356 in the table and 33.356 in the prose below it; the table is
	 * taken.
	 */
	static final List<PaperRow> PAPER_SINGLE_P99_MS = List.of(new PaperRow(1, 203.918, 7442, 17749),
			new PaperRow(5, 19.166, 55.95, 426.78), new PaperRow(10, 4.741, 35.356, 205.427));

	/** The JOIV paper, Table III: maximum latency (ms), three instances. */
	static final List<PaperRow> PAPER_MULTI_MAX_MS = List.of(new PaperRow(1, 33.455, 52.652, 164.504),
			new PaperRow(5, 36.346, 29.725, 52.948), new PaperRow(10, 35.298, 59.407, 226.646));

	/**
	 * The JOIV paper, Table IV: 99th percentile latency (ms), three instances.
	 */
	static final List<PaperRow> PAPER_MULTI_P99_MS = List.of(new PaperRow(1, 7.496, 14.672, 54.697),
			new PaperRow(5, 6.227, 13.279, 18.513), new PaperRow(10, 7.111, 18.173, 55.855));

	/**
	 * The sizing blog post, "테스트 결과" sections: every pool size the post tested with
	 * Tomcat's 200 threads, in the post's order of size.
	 */
	static final List<Integer> BLOG_POOL_SIZES = List.of(5, 10, 12, 16, 32, 200);

	/**
	 * The sizing blog post, sections "Connection Pool Size 16 / 10 / 5 / 200 테스트 결과":
	 * JMeter's throughput. Sizes 12 and 32 have their figures only in screenshots; the
	 * text says only that they made no big difference.
	 */
	static final List<BlogThroughput> BLOG_THROUGHPUT = List.of(
			new BlogThroughput(5, 9751.3,
					"the post's setting before the test; reruns never reached pool 10's throughput"),
			new BlogThroughput(10, 9947.3, "HikariCP's default size"),
			new BlogThroughput(16, 9938.4, "the post's starting point: 6 cores × 2 + 4, to reach a power of two"),
			new BlogThroughput(200, 6147.4, "as many connections as Tomcat threads"));

	/**
	 * The R2DBC article, sections "Without Connection Pooling" and "With Connection
	 * Pooling": k6 against the endpoint that inserts 100 records per request.
	 */
	static final List<K6Run> R2DBC_RUNS = List.of(new K6Run("none", 140, 2330, "2.33s"),
			new K6Run("R2DBC pool, initial-size 50, max-size 100", 480, 668, "668ms"));

	/**
	 * Vlad Mihalcea's article, table "Type / No Pooling Time (milliseconds)": 1000
	 * connections opened and closed. The text runs the two columns together
	 * ({@code max146.69324125.528047}, {@code stddev5.94383353.969438}); split as
	 * 146.69324 / 125.528047 and 5.9438335 / 3.969438, the only split that fits the
	 * pooled mean (one 125.5 ms acquisition among 1000 of about 0.003 ms gives its 0.1289
	 * ms mean and its 3.97 ms stddev).
	 */
	static final Timing ANATOMY_NO_POOLING = new Timing("no pooling", 74.551414, 146.69324, 78.216549, 76.150440,
			5.9438335);

	/** Vlad Mihalcea's article, the same table, "Connection Pooling Time" column. */
	static final Timing ANATOMY_POOLING = new Timing("connection pooling (HikariCP)", 0.002633, 125.528047, 0.128900,
			0.003218, 3.969438);

	/**
	 * The JOIV paper "A Study of Database Connection Pool in Microservice Architecture"
	 * (Nor Sobri et al., 2022).
	 */
	static final Source JOIV = new Source("joiv-2022",
			"A Study of Database Connection Pool in Microservice Architecture",
			"Nur Ayuni Nor Sobri, Mohamad Aqib Haqmi Abas, Ihsan Mohd Yassin et al., International Journal on "
					+ "Informatics Visualization (JOIV), 2022; Tables I–IV",
			"Measured with the Vegeta load tester at constant 500, 1000 and 2000 requests per second for 5 s each, "
					+ "against the paper's own /roles service on Arm64v8 hardware, one instance alone and three behind "
					+ "Nginx, on PostgreSQL with its default settings. Each instance was limited to one CPU "
					+ "(GOMAXPROCS = 1: the paper limits \"the go runtime\", so its service ran on Go, not on Spring "
					+ "Boot with HikariCP as here) and 128 MB, limits the paper says no test reached. It gives neither "
					+ "the machine's core count nor where Vegeta, Nginx and PostgreSQL ran. Different hardware, "
					+ "service and load generator (Vegeta vs JMeter) mean the milliseconds cannot match ours; compare "
					+ "where each pool size starts to queue. Where the paper's prose and tables disagree (Table II, "
					+ "pool 10 at 1000 rps: 33.356 vs 35.356), the table is shown.",
			List.of(new Published(SINGLE,
					paperTable("Published by the paper, Table I: max latency (ms), single instance",
							PAPER_SINGLE_MAX_MS)),
					new Published(SINGLE,
							paperTable("Published by the paper, Table II: p99 latency (ms), single instance",
									PAPER_SINGLE_P99_MS)),
					new Published(MULTI,
							paperTable("Published by the paper, Table III: max latency (ms), three instances",
									PAPER_MULTI_MAX_MS)),
					new Published(MULTI,
							paperTable("Published by the paper, Table IV: p99 latency (ms), three instances",
									PAPER_MULTI_P99_MS))));

	/** The blog post "Sizing connection pool" (limvik, 2023, in Korean). */
	static final Source BLOG = new Source("limvik-2023", "Sizing connection pool",
			"Korean-language blog post dated 2023-12-11 (the text names no author or site)",
			"Measured with JMeter, 1000 threads ramped up over 10 s, 100 requests each (a closed model: each thread "
					+ "waits for its answer, so throughput is what the service returned under full pressure), on one "
					+ "desktop running the application, MySQL 8.0.35, JMeter and, as the post says, many other "
					+ "programs: AMD Ryzen 5 3600X (6 cores, 4.10 GHz), 16 GB RAM, 512 GB SSD, Windows 11 Pro 22H2; "
					+ "Spring Boot 3.2.0, Tomcat 10.1.16 with its default 200 threads, HikariCP 5.0.1, a GET that reads "
					+ "one row with JdbcTemplate. The post itself says this differs much from production and shows "
					+ "only a trend. MySQL vs PostgreSQL, one row vs our 20-role join, a closed model vs our fixed "
					+ "rates and other hardware: compare where throughput stops rising with the pool, not the "
					+ "figures. The text publishes no latency figures (its JMeter result tables are screenshots).",
			List.of(new Published(SINGLE, blogTable())));

	/** Kamal, "Configuring Connection Pooling with Spring R2DBC" (DEV Community). */
	static final Source R2DBC = new Source("mahmud-2022", "Configuring Connection Pooling with Spring R2DBC",
			"Kamal, DEV Community (originally published at kamalhm.dev)",
			"Measured with k6 against a Spring Boot application on Spring Data R2DBC and PostgreSQL (the database in "
					+ "Docker), on an API that inserts a hundred records per request; the pool is R2DBC's "
					+ "(spring.r2dbc.pool.initial-size=50, max-size=100), not HikariCP. The article gives neither "
					+ "k6's virtual users nor the test's duration, so its counts are not rates and cannot be set "
					+ "against our requests per second; it does not describe its hardware. It calls the gain "
					+ "\"almost 3.5x\" in throughput and \"almost 4x\" in latency; its own figures give 480 / 140 "
					+ "≈ 3.4 and 2.33 s / 668 ms ≈ 3.5.",
			List.of(new Published(SINGLE, r2dbcTable())));

	/**
	 * "Improve database performance with connection pooling" (Stack Overflow blog, 2020),
	 * section "Scaling database performance with pgbouncer": pgbench (TPC-B-like), 10
	 * clients, directly and through pgbouncer in transaction mode (default_pool_size 25,
	 * reserve_pool_size 5, max_client_conn 100).
	 */
	static final Source PGBOUNCER = new Source("stackoverflow-2020",
			"Improve database performance with connection pooling",
			"code-for-a-living, October 14, 2020 (the Stack Overflow blog section of that name)",
			"Measured with pgbench (TPC-B-like: five SELECT, INSERT and UPDATE commands per transaction, scale 50), "
					+ "10 client sessions, against PostgreSQL directly and through pgbouncer in transaction pooling; "
					+ "the text describes no hardware, and its two runs differ in transactions per client (10,000 "
					+ "direct, 1,000 through pgbouncer). It calls 486 → 566 TPS an improvement of "
					+ "\"approximately 60%\"; the figures give about 16 %. Its pgpool-II run is reported only as "
					+ "\"75%\" better, with no figure. The lab's pgbouncer topology puts pgbouncer under a web "
					+ "service's own pools instead of pgbench's clients, so only the direction compares.",
			List.of(new Published(PGBOUNCER_TOPOLOGY, pgbouncerTable())));

	/** Vlad Mihalcea, "The anatomy of Connection Pooling". */
	static final Source ANATOMY = new Source("mihalcea-2014", "The anatomy of Connection Pooling",
			"Vlad Mihalcea, Vlad Mihalcea's Blog (republished by Java Code Geeks)",
			"Measured by a test that opens and closes 1000 connections (getDataSource().getConnection().close()), "
					+ "each timed with a Metrics Timer, without a pool and with HikariCP. The article names neither "
					+ "the database nor the hardware nor the pool's size. Its \"600 times faster\" is the ratio of "
					+ "its means (78.216549 / 0.128900 ≈ 607); its medians differ about 23,700 times, and its "
					+ "pooled mean rests on one slow acquisition (its max, 125.5 of the 128.9 ms that all 1000 "
					+ "took). Opening a connection costs what the database, its host and the network make it cost, "
					+ "none of which the article describes, so a ratio measured here need not match its own.",
			List.of(new Published(null,
					AcquireCost.timings("Published by the article: time per connection open + close (ms)",
							List.of("statistic", "no pooling (ms)", "connection pooling (ms)"), ANATOMY_NO_POOLING,
							ANATOMY_POOLING, PublishedFigures::figure, false))));

	private PublishedFigures() {
	}

	/**
	 * The sources a preset reproduces, in the order the report shows them: for
	 * {@code pooling}, the acquire-cost article first, right after our own acquire-cost
	 * section.
	 * @param preset the run's preset, may be null for old results
	 * @return the sources, empty for a preset of our own
	 */
	static List<Source> forPreset(String preset) {
		if (preset == null) {
			return List.of();
		}
		return switch (preset.toLowerCase(Locale.ROOT)) {
			case "paper" -> List.of(JOIV);
			case "blog" -> List.of(BLOG);
			case "pooling" -> List.of(ANATOMY, R2DBC, PGBOUNCER);
			default -> List.of();
		};
	}

	/**
	 * Where each published table goes: after the first section of the topology it
	 * matches, else at the end. Sources keep the order of {@link #forPreset(String)}.
	 * @param preset the run's preset
	 * @param sections our sections, in report order
	 * @return the placement
	 */
	static Placement place(String preset, List<Section> sections) {
		Map<Section, List<Block>> bySection = new LinkedHashMap<>();
		Map<Source, List<Table>> atEnd = new LinkedHashMap<>();
		for (Source source : forPreset(preset)) {
			Map<Section, List<Table>> mine = new LinkedHashMap<>();
			for (Published published : source.tables()) {
				Optional<Section> section = sections.stream()
					.filter((candidate) -> candidate.grid().topology().equals(published.topology()))
					.findFirst();
				if (section.isPresent()) {
					mine.computeIfAbsent(section.get(), (key) -> new ArrayList<>()).add(published.table());
				}
				else {
					atEnd.computeIfAbsent(source, (key) -> new ArrayList<>()).add(published.table());
				}
			}
			mine.forEach((section, tables) -> bySection.computeIfAbsent(section, (key) -> new ArrayList<>())
				.add(new Block(source, tables, section.grid().key())));
		}
		// The source's set-up is told once, where a reader meets it first.
		Set<Source> told = new HashSet<>();
		Map<Section, List<Block>> placed = new LinkedHashMap<>();
		for (Section section : sections) {
			List<Block> blocks = bySection.getOrDefault(section, List.of())
				.stream()
				.map((block) -> block.told(!told.add(block.source())))
				.toList();
			placed.put(section, blocks);
		}
		List<Block> end = new ArrayList<>();
		atEnd.forEach((source, tables) -> end.add(new Block(source, tables, null).told(!told.add(source))));
		return new Placement(placed, end);
	}

	static void markdown(StringBuilder md, Block block) {
		Source source = block.source();
		md.append((block.topologyKey() != null) ? "### " : "\n## ")
			.append("Published figures: ")
			.append(source.title())
			.append("\n\n");
		md.append('*').append(source.byline()).append(".* ").append(LABEL).append("\n\n");
		md.append(block.toldAbove() ? SEE_ABOVE : source.note()).append("\n\n");
		for (Table table : block.tables()) {
			MarkdownReport.table(md, table);
		}
	}

	static void html(StringBuilder html, Block block) {
		Source source = block.source();
		boolean inSection = block.topologyKey() != null;
		html.append("<section class=\"published\" id=\"published-")
			.append(source.key())
			.append(inSection ? "-" + HtmlReport.escape(block.topologyKey()) : "")
			.append("\">\n")
			.append(inSection ? "<h3>" : "<h2>")
			.append("Published figures: ")
			.append(HtmlReport.escape(source.title()))
			.append(inSection ? "</h3>" : "</h2>")
			.append("\n<p class=\"meta\">")
			.append(HtmlReport.escape(source.byline()))
			.append(" <span class=\"flag\">published figures, for comparison only</span></p>\n<p class=\"note\">")
			.append(HtmlReport.escape(LABEL + " " + (block.toldAbove() ? SEE_ABOVE : source.note())))
			.append("</p>\n<div class=\"paper-tables\">\n");
		for (Table table : block.tables()) {
			HtmlReport.table(html, table, "grid published-table");
		}
		html.append("</div>\n</section>\n");
	}

	/** A figure as the source printed it: no rounding, no padding. */
	static String figure(double value) {
		return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
	}

	private static Table paperTable(String caption, List<PaperRow> published) {
		List<String> header = new ArrayList<>();
		header.add("pool \\ rate");
		PAPER_RATES_RPS.forEach((rateRps) -> header.add(rateRps + " rps"));
		List<ToDoubleFunction<PaperRow>> columns = List.of(PaperRow::at500RpsMs, PaperRow::at1000RpsMs,
				PaperRow::at2000RpsMs);
		List<Row> rows = published.stream().map((row) -> {
			List<Entry> entries = new ArrayList<>();
			entries.add(Entry.of(String.valueOf(row.poolSize())));
			columns.forEach((column) -> entries.add(Entry.of(figure(column.applyAsDouble(row)))));
			return new Row(entries, false);
		}).toList();
		return new Table(caption, header, rows, 1, header.size());
	}

	private static Table blogTable() {
		List<Row> rows = BLOG_POOL_SIZES.stream().map((poolSize) -> {
			BlogThroughput published = BLOG_THROUGHPUT.stream()
				.filter((figure) -> figure.poolSize() == poolSize)
				.findFirst()
				.orElse(null);
			return new Row(List.of(Entry.of(String.valueOf(poolSize)),
					Entry.of((published != null) ? figure(published.requestsPerSecond()) : "–"),
					Entry.of((published != null) ? published.note()
							: "figure only in a screenshot; the text: no big difference")),
					false);
		}).toList();
		return new Table("Published by the post: JMeter throughput (requests/s) per pool size, Tomcat's 200 threads",
				List.of("pool", "throughput (requests/s)", "the post's note"), rows, 0, 2);
	}

	private static Table pgbouncerTable() {
		List<Row> rows = List.of(
				new Row(List.of(Entry.of("PostgreSQL directly"), Entry.of("10"), Entry.of("486")), false),
				new Row(List.of(Entry.of("through pgbouncer, transaction pooling, default_pool_size 25"),
						Entry.of("10"), Entry.of("566")), false));
		return new Table("Published by the article: pgbench throughput", List.of("connection", "clients", "TPS"), rows,
				1, 3);
	}

	private static Table r2dbcTable() {
		List<Row> rows = R2DBC_RUNS.stream()
			.map((run) -> new Row(List.of(Entry.of(run.pool()), Entry.of(String.valueOf(run.completedIterations())),
					Entry.of(figure(run.p95Ms())), Entry.of(run.p95AsPublished())), false))
			.toList();
		return new Table("Published by the article: k6, write-heavy endpoint (100 records inserted per request)",
				List.of("pool", "completed iterations", "p95 latency (ms)", "p95 as published"), rows, 1, 3);
	}

	/** Said where a source's set-up was told with its earlier tables. */
	static final String SEE_ABOVE = "Its set-up, and why its milliseconds cannot match ours, are described with "
			+ "its first tables above.";

	/**
	 * One source text and its figures.
	 *
	 * @param key the source's short name, its key in the report's HTML anchors, e.g.
	 * {@code joiv-2022} in {@code published-joiv-2022}
	 * @param title the text's title
	 * @param byline author and venue as the text gives them
	 * @param note the set-up the figures were measured on, as the text describes it, and
	 * why ours differ
	 * @param tables its figures
	 */
	record Source(String key, String title, String byline, String note, List<Published> tables) {
	}

	/**
	 * One published table and the topology of ours it compares with.
	 *
	 * @param topology {@code single}, {@code multi} or {@code pgbouncer}; null for none
	 * (shown at the end)
	 * @param table the figures
	 */
	record Published(String topology, Table table) {
	}

	/**
	 * A source's tables in one place of the report.
	 *
	 * @param source the source
	 * @param tables its tables placed here
	 * @param topologyKey the section they follow ({@link Grid#key()}); null at the end
	 * @param toldAbove whether the source's set-up was already described above
	 */
	record Block(Source source, List<Table> tables, String topologyKey, boolean toldAbove) {

		Block(Source source, List<Table> tables, String topologyKey) {
			this(source, tables, topologyKey, false);
		}

		Block told(boolean above) {
			return new Block(this.source, this.tables, this.topologyKey, above);
		}

	}

	/**
	 * @param bySection the blocks after each of our sections (possibly none)
	 * @param atEnd the blocks whose topology we did not measure, or that match none
	 */
	record Placement(Map<Section, List<Block>> bySection, List<Block> atEnd) {

		List<Block> after(Section section) {
			return this.bySection.getOrDefault(section, List.of());
		}

	}

	/**
	 * One row of the JOIV paper's Tables I–IV: a pool size's latency at each rate.
	 *
	 * @param poolSize maximum number of database connections
	 * @param at500RpsMs latency at 500 requests per second, ms
	 * @param at1000RpsMs at 1000
	 * @param at2000RpsMs at 2000
	 */
	record PaperRow(int poolSize, double at500RpsMs, double at1000RpsMs, double at2000RpsMs) {
	}

	/**
	 * @param poolSize HikariCP's maximum-pool-size
	 * @param requestsPerSecond JMeter's throughput
	 * @param note what the post says about this size
	 */
	record BlogThroughput(int poolSize, double requestsPerSecond, String note) {
	}

	/**
	 * @param pool what pooled the connections
	 * @param completedIterations requests k6 completed in the test
	 * @param p95Ms 95th percentile latency
	 * @param p95AsPublished the same, as the article writes it
	 */
	record K6Run(String pool, int completedIterations, double p95Ms, String p95AsPublished) {
	}

}
