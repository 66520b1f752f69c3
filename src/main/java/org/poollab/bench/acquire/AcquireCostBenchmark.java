package org.poollab.bench.acquire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.HdrHistogram.Histogram;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import org.poollab.bench.results.ResultsStore;
import org.poollab.vendor.DatabaseVendor;
import org.poollab.vendor.EmbeddedDatabase;

/**
 * What a pool saves per connection (Vlad Mihalcea, "The anatomy of Connection Pooling"):
 * open and close N connections without a pool ({@code DriverManager}), then borrow and
 * return N through a warmed HikariCP pool, timing each one. Writes
 * {@code acquire-cost.json} and {@code acquire-cost.md} into a run directory and prints
 * the table.
 * <p>
 * {@code ./mvnw -q compile exec:java -Dexec.mainClass=org.poollab.bench.acquire.AcquireCostBenchmark}
 * with optional {@code -Dbench.acquire.acquisitions=1000},
 * {@code -Dbench.acquire.poolSize=5},
 * {@code -Dbench.acquire.outputDirectory=target/bench/acquire} and
 * {@code -Dbench.database.url=...} ({@code .username}, {@code .password}) for an existing
 * PostgreSQL (or MariaDB) instead of the default vendor's embedded server (PostgreSQL). A
 * sweep runs it on its own database, whichever vendor that is ({@link #measureInto}).
 */
public final class AcquireCostBenchmark {

	/** Acquisitions of each kind before the measured ones (class loading, JIT). */
	static final int WARMUP_ACQUISITIONS = 50;

	private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

	private AcquireCostBenchmark() {
	}

	/**
	 * What to measure.
	 *
	 * @param acquisitions measured acquisitions of each kind
	 * @param poolSize HikariCP's {@code maximum-pool-size} (the pool is full before the
	 * first measured acquisition)
	 * @param databaseUrl JDBC URL of an existing database; empty to start an embedded
	 * PostgreSQL
	 * @param username user name
	 * @param password password (never written to the results)
	 * @param outputDirectory where the run directory {@code <start time>} is created
	 */
	public record Settings(int acquisitions, int poolSize, String databaseUrl, String username, String password,
			Path outputDirectory) {

		static Settings fromSystemProperties() {
			return new Settings(Integer.getInteger("bench.acquire.acquisitions", 1000),
					Integer.getInteger("bench.acquire.poolSize", 5), System.getProperty("bench.database.url", ""),
					System.getProperty("bench.database.username", DatabaseVendor.DEFAULT.embeddedUser()),
					System.getProperty("bench.database.password", ""),
					Path.of(System.getProperty("bench.acquire.outputDirectory", "target/bench/acquire")));
		}

	}

	/**
	 * {@code acquire-cost.json}.
	 *
	 * @param startedAt when the run started
	 * @param database where the connections went (JDBC URL without query)
	 * @param acquisitions measured acquisitions of each kind
	 * @param warmupAcquisitions unmeasured acquisitions of each kind before them
	 * @param poolSize HikariCP's pool size
	 * @param unpooled {@code DriverManager.getConnection} + {@code close()}: a new
	 * database connection (TCP, start-up, on PostgreSQL a backend process) each time
	 * @param pooled {@code HikariDataSource.getConnection()} + {@code close()}: borrow
	 * and return
	 * @param medianRatio unpooled median / pooled median
	 * @param meanRatio unpooled mean / pooled mean (the article's "600 times")
	 */
	public record Result(Instant startedAt, String database, int acquisitions, int warmupAcquisitions, int poolSize,
			Timing unpooled, Timing pooled, double medianRatio, double meanRatio) {
	}

	/**
	 * One kind of acquisition, in milliseconds, as in the article's table.
	 *
	 * @param method what was timed
	 * @param minMs fastest
	 * @param maxMs slowest
	 * @param meanMs mean
	 * @param medianMs median
	 * @param stddevMs standard deviation
	 */
	public record Timing(String method, double minMs, double maxMs, double meanMs, double medianMs, double stddevMs) {

		static Timing of(String method, Histogram nanos) {
			return new Timing(method, ms(nanos.getMinValue()), ms(nanos.getMaxValue()), ms(nanos.getMean()),
					ms(nanos.getValueAtPercentile(50)), ms(nanos.getStdDeviation()));
		}

		private static double ms(double nanos) {
			return nanos / TimeUnit.MILLISECONDS.toNanos(1);
		}

	}

	/**
	 * The run and where it was written.
	 *
	 * @param result what was measured
	 * @param directory the run directory
	 */
	public record Outcome(Result result, Path directory) {
	}

	public static void main(String[] args) throws Exception {
		quietLogging();
		Outcome outcome = run(Settings.fromSystemProperties());
		System.out.print(markdown(outcome.result()));
		System.out.println();
		System.out.println("Wrote " + outcome.directory().resolve("acquire-cost.md"));
	}

	/**
	 * Measures both kinds of acquisition and writes the run directory.
	 * @param settings what to measure
	 * @return what was measured and where it was written
	 * @throws SQLException when the database cannot be reached
	 * @throws IOException when the results cannot be written
	 */
	public static Outcome run(Settings settings) throws SQLException, IOException {
		Instant startedAt = Instant.now();
		if (!settings.databaseUrl().isBlank()) {
			return measure(settings, settings.databaseUrl(), startedAt);
		}
		try (EmbeddedDatabase server = DatabaseVendor.DEFAULT.startEmbedded()) {
			return measure(settings, server.jdbcUrl(), startedAt);
		}
	}

	private static Outcome measure(Settings settings, String url, Instant startedAt) throws SQLException, IOException {
		return measure(settings, url, startedAt, ResultsStore.newRunDirectory(settings.outputDirectory(), startedAt));
	}

	/**
	 * Measures both kinds of acquisition against a running database and writes
	 * {@code acquire-cost.json} and {@code acquire-cost.md} into an existing directory: a
	 * sweep's run directory, so that its report shows them.
	 * @param settings what to measure (its output directory is not used)
	 * @param url the database
	 * @param directory where to write
	 * @return what was measured
	 * @throws SQLException when the database cannot be reached
	 * @throws IOException when the results cannot be written
	 */
	public static Outcome measureInto(Settings settings, String url, Path directory) throws SQLException, IOException {
		return measure(settings, url, Instant.now(), directory);
	}

	private static Outcome measure(Settings settings, String url, Instant startedAt, Path directory)
			throws SQLException, IOException {
		Histogram unpooled = newHistogram();
		for (int i = 0; i < WARMUP_ACQUISITIONS + settings.acquisitions(); i++) {
			long startNanos = System.nanoTime();
			DriverManager.getConnection(url, settings.username(), settings.password()).close();
			record(unpooled, i, System.nanoTime() - startNanos);
		}
		Histogram pooled = newHistogram();
		try (HikariDataSource pool = pool(settings, url)) {
			for (int i = 0; i < WARMUP_ACQUISITIONS + settings.acquisitions(); i++) {
				long startNanos = System.nanoTime();
				pool.getConnection().close();
				record(pooled, i, System.nanoTime() - startNanos);
			}
		}
		Timing withoutPool = Timing.of("DriverManager.getConnection + close", unpooled);
		Timing withPool = Timing.of("HikariDataSource.getConnection + close", pooled);
		Result result = new Result(startedAt, withoutQuery(url), settings.acquisitions(), WARMUP_ACQUISITIONS,
				settings.poolSize(), withoutPool, withPool, withoutPool.medianMs() / withPool.medianMs(),
				withoutPool.meanMs() / withPool.meanMs());
		JSON.writeValue(directory.resolve("acquire-cost.json").toFile(), result);
		Files.writeString(directory.resolve("acquire-cost.md"), markdown(result), StandardCharsets.UTF_8);
		return new Outcome(result, directory);
	}

	/**
	 * A pool holding all its connections before the first acquisition: a fixed-size pool
	 * fills in the background, and borrowing all of its connections at once makes it open
	 * the ones it still lacks.
	 */
	private static HikariDataSource pool(Settings settings, String url) throws SQLException {
		HikariConfig config = new HikariConfig();
		config.setPoolName("acquire-cost");
		config.setJdbcUrl(url);
		config.setUsername(settings.username());
		config.setPassword(settings.password());
		config.setMaximumPoolSize(settings.poolSize());
		HikariDataSource pool = new HikariDataSource(config);
		List<Connection> all = new ArrayList<>();
		try {
			for (int i = 0; i < settings.poolSize(); i++) {
				all.add(pool.getConnection());
			}
		}
		finally {
			for (Connection connection : all) {
				connection.close();
			}
		}
		return pool;
	}

	static String markdown(Result result) {
		StringBuilder md = new StringBuilder();
		md.append("# Connection acquire cost: no pooling vs HikariCP\n\n");
		md.append(String.format(Locale.ROOT,
				"%d connections opened and closed without a pool, then %d borrowed and returned through a HikariCP "
						+ "pool of %d (full before the first), each after %d unmeasured ones. Database: %s. Started %s.%n%n",
				result.acquisitions(), result.acquisitions(), result.poolSize(), result.warmupAcquisitions(),
				result.database(), result.startedAt()));
		md.append("| time (ms) | no pooling | HikariCP |\n|---|---:|---:|\n");
		row(md, "min", result.unpooled().minMs(), result.pooled().minMs());
		row(md, "max", result.unpooled().maxMs(), result.pooled().maxMs());
		row(md, "mean", result.unpooled().meanMs(), result.pooled().meanMs());
		row(md, "stddev", result.unpooled().stddevMs(), result.pooled().stddevMs());
		row(md, "median", result.unpooled().medianMs(), result.pooled().medianMs());
		md.append(String.format(Locale.ROOT,
				"%nHikariCP was %,.0f times faster by median and %,.0f times by mean. The article measured "
						+ "median 76.150440 ms vs 0.003218 ms and mean 78.216549 ms vs 0.128900 ms: its "
						+ "\"600 times faster\" is the ratio of the means.%n",
				result.medianRatio(), result.meanRatio()));
		return md.toString();
	}

	private static void row(StringBuilder md, String statistic, double unpooledMs, double pooledMs) {
		md.append(String.format(Locale.ROOT, "| %s | %.6f | %.6f |%n", statistic, unpooledMs, pooledMs));
	}

	private static void record(Histogram histogram, int acquisition, long nanos) {
		if (acquisition >= WARMUP_ACQUISITIONS) {
			histogram.recordValue(nanos);
		}
	}

	/** Nanoseconds up to a minute, three significant digits. */
	private static Histogram newHistogram() {
		return new Histogram(TimeUnit.MINUTES.toNanos(1), 3);
	}

	private static String withoutQuery(String url) {
		int query = url.indexOf('?');
		return (query >= 0) ? url.substring(0, query) : url;
	}

	/**
	 * Run from Maven, nothing configures logging: without this, Logback's default prints
	 * every DEBUG line of the embedded PostgreSQL and HikariCP between the figures.
	 */
	private static void quietLogging() {
		if (org.slf4j.LoggerFactory
			.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
			root.setLevel(ch.qos.logback.classic.Level.WARN);
		}
	}

}
