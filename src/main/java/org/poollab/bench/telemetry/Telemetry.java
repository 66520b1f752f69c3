package org.poollab.bench.telemetry;

import java.io.IOException;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.jspecify.annotations.Nullable;

import org.poollab.bench.deploy.Instance;
import org.poollab.bench.deploy.PgBouncer;
import org.poollab.bench.results.SweepResults;

/**
 * Scrapes every instance's {@code /actuator/prometheus} (HikariCP's Micrometer metrics)
 * and the load generator's CPU time at a fixed interval while a point runs. What happened
 * in the measured window is worked out afterwards, from the scrapes around it.
 * <p>
 * Each source is looked at on a thread of its own: a scrape that hangs on a busy instance
 * (up to its two-second timeout; the instances are asked at once) delays only the next
 * scrapes, not the CPU samples or pgbouncer's, which a stalled window needs most.
 */
public final class Telemetry implements AutoCloseable {

	static final Duration INTERVAL = SweepResults.SCRAPE_INTERVAL;

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

	/** How long one scrape may take before it counts as missed. */
	private static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(2);

	/** Each instance's {@code /actuator/prometheus}, by its index. */
	private final List<URI> prometheus;

	/**
	 * Each instance's HikariCP pool, by its {@code pool} tag, by its index; null: every
	 * pool's figures (the lab's own instances run one).
	 */
	private final List<@Nullable String> pools;

	private final Duration scrapeTimeout;

	private final ProcessHandle loadGenerator;

	private final List<Scrape> scrapes = new CopyOnWriteArrayList<>();

	private final List<CpuSample> cpu = new CopyOnWriteArrayList<>();

	private final Supplier<OptionalLong> databaseCpuNanos;

	private final List<CpuSample> databaseCpu = new CopyOnWriteArrayList<>();

	private final List<PgBouncer.Sample> pgbouncerSamples = new CopyOnWriteArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	private volatile boolean running = true;

	/**
	 * @param pgbouncer also watched when not {@code null}
	 */
	public Telemetry(List<Instance> instances, @Nullable PgBouncer pgbouncer, ProcessHandle loadGenerator) {
		this(instances, pgbouncer, loadGenerator, OptionalLong::empty);
	}

	/**
	 * @param pgbouncer also watched when not {@code null}
	 * @param databaseCpuNanos the database's CPU time so far, sampled with the rest;
	 * empty where it cannot be read
	 */
	public Telemetry(List<Instance> instances, @Nullable PgBouncer pgbouncer, ProcessHandle loadGenerator,
			Supplier<OptionalLong> databaseCpuNanos) {
		this(instances.stream().map((instance) -> instance.actuator("prometheus")).toList(),
				instances.stream().map(Instance::poolName).toList(), (pgbouncer != null) ? pgbouncer::sample : null,
				loadGenerator, databaseCpuNanos, SCRAPE_TIMEOUT);
	}

	/**
	 * @param prometheus each instance's {@code /actuator/prometheus}
	 * @param pgbouncer also looked at when not {@code null}
	 * @param scrapeTimeout how long one scrape may take
	 */
	Telemetry(List<URI> prometheus, @Nullable PgBouncerLook pgbouncer, ProcessHandle loadGenerator,
			Supplier<OptionalLong> databaseCpuNanos, Duration scrapeTimeout) {
		this(prometheus, Collections.nCopies(prometheus.size(), null), pgbouncer, loadGenerator, databaseCpuNanos,
				scrapeTimeout);
	}

	/**
	 * @param prometheus each instance's {@code /actuator/prometheus}
	 * @param pools each instance's HikariCP pool by its {@code pool} tag, null for all
	 * @param pgbouncer also looked at when not {@code null}
	 * @param scrapeTimeout how long one scrape may take
	 */
	Telemetry(List<URI> prometheus, List<@Nullable String> pools, @Nullable PgBouncerLook pgbouncer,
			ProcessHandle loadGenerator, Supplier<OptionalLong> databaseCpuNanos, Duration scrapeTimeout) {
		this.prometheus = List.copyOf(prometheus);
		this.pools = new ArrayList<>(pools);
		this.loadGenerator = loadGenerator;
		this.databaseCpuNanos = databaseCpuNanos;
		this.scrapeTimeout = scrapeTimeout;
		every("lab-telemetry", this::scrapeNow);
		every("lab-telemetry-cpu", this::sampleCpu);
		if (pgbouncer != null) {
			every("lab-telemetry-pgbouncer", () -> samplePgBouncer(pgbouncer));
		}
	}

	/** One look at pgbouncer's admin console: what {@link PgBouncer#sample()} returns. */
	@FunctionalInterface
	interface PgBouncerLook {

		PgBouncer.Sample sample() throws SQLException;

	}

	/**
	 * The scrapes so far, ending with a last look at every instance taken now: called
	 * once the window has ended, it gives the window a scrape after its end, which the
	 * scraping thread's next round may be up to {@link #INTERVAL} away from.
	 */
	public List<Scrape> scrapes() {
		scrapeNow();
		return List.copyOf(this.scrapes);
	}

	public List<CpuSample> cpu() {
		return List.copyOf(this.cpu);
	}

	/** The database's CPU time, sampled; empty where it cannot be read. */
	public List<CpuSample> databaseCpu() {
		return List.copyOf(this.databaseCpu);
	}

	public List<PgBouncer.Sample> pgbouncer() {
		return List.copyOf(this.pgbouncerSamples);
	}

	@Override
	public void close() throws InterruptedException {
		this.running = false;
		for (Thread thread : this.threads) {
			thread.interrupt();
		}
		for (Thread thread : this.threads) {
			thread.join(Duration.ofSeconds(5).toMillis());
		}
	}

	/** Runs {@code look} every {@link #INTERVAL} on a daemon thread of its own. */
	private void every(String name, Runnable look) {
		Thread thread = new Thread(() -> {
			while (this.running && !Thread.currentThread().isInterrupted()) {
				long atMs = System.currentTimeMillis();
				look.run();
				try {
					Thread.sleep(Math.max(0, INTERVAL.toMillis() - (System.currentTimeMillis() - atMs)));
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}, name);
		thread.setDaemon(true);
		this.threads.add(thread);
		thread.start();
	}

	private void sampleCpu() {
		long atMs = System.currentTimeMillis();
		this.loadGenerator.info()
			.totalCpuDuration()
			.ifPresent((total) -> this.cpu.add(new CpuSample(atMs, total.toNanos())));
		this.databaseCpuNanos.get().ifPresent((total) -> this.databaseCpu.add(new CpuSample(atMs, total)));
	}

	private void samplePgBouncer(PgBouncerLook pgbouncer) {
		try {
			this.pgbouncerSamples.add(pgbouncer.sample());
		}
		catch (SQLException ex) {
			// A missed look leaves a gap; PgBouncer.samples shows it.
		}
	}

	/**
	 * Scrapes every instance now and returns once each has answered or timed out: at a
	 * window's edges, so that counters diffed across the window (request and acquire
	 * histograms) cover it and not up to an interval of the load around it. The instances
	 * are asked at once, not one after the other: on a busy machine one scrape took up to
	 * 0.4 s, and the pools are resized only after the previous window's edge scrape.
	 */
	public void scrapeNow() {
		List<CompletableFuture<Void>> looks = new ArrayList<>();
		for (int i = 0; i < this.prometheus.size(); i++) {
			looks.add(scrape(i));
		}
		try {
			CompletableFuture.allOf(looks.toArray(CompletableFuture[]::new)).get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException ex) {
			// Each look handles its own failure (scrape): a missed scrape leaves a gap.
		}
	}

	private CompletableFuture<Void> scrape(int index) {
		long sentMs = System.currentTimeMillis();
		return HTTP
			.sendAsync(HttpRequest.newBuilder(this.prometheus.get(index)).timeout(this.scrapeTimeout).build(),
					HttpResponse.BodyHandlers.ofString())
			.handle((response, failure) -> {
				// A missed scrape (instance busy or gone) leaves a gap; telemetrySamples
				// shows it.
				if (failure == null && response.statusCode() == 200) {
					this.scrapes.add(new Scrape(sentMs, System.currentTimeMillis(), index,
							PoolSnapshot.parse(response.body(), this.pools.get(index))));
				}
				return null;
			});
	}

	/**
	 * Whether no request of the load is in flight at any instance now, as far as its
	 * HikariCP pool tells: a scrape of every instance, taken now and kept like any other,
	 * shows a pool with no connection in use and none awaited. A request holds or awaits
	 * a connection for all but the microseconds around its statement, so two such looks
	 * apart are enough once no new request arrives. (Spring MVC's in-flight timer,
	 * {@code http.server.requests.active}, is not exported here.) An instance that does
	 * not answer, or runs no pool ({@code none}), is not known to be idle.
	 */
	public boolean idle() {
		long sinceMs = System.currentTimeMillis();
		scrapeNow();
		for (int i = 0; i < this.prometheus.size(); i++) {
			Optional<Scrape> now = firstAtOrAfter(of(this.scrapes, i), sinceMs);
			if (now.isEmpty() || !now.get().pool().idle()) {
				return false;
			}
		}
		return true;
	}

	/**
	 * One instance's figures, asked for at {@code sentMs} and received at {@code atMs}:
	 * the instance rendered them in between.
	 */
	public record Scrape(long sentMs, long atMs, int instance, PoolSnapshot pool) {

		/** A scrape answered at once, as tests write it. */
		public Scrape(long atMs, int instance, PoolSnapshot pool) {
			this(atMs, atMs, instance, pool);
		}

	}

	/**
	 * The last of an instance's scrapes at or before a moment: what its counters read
	 * before a window starting then.
	 */
	static Optional<Scrape> lastAtOrBefore(List<Scrape> mine, long atMs) {
		return mine.stream().filter((s) -> s.atMs() <= atMs).max(Comparator.comparingLong(Scrape::atMs));
	}

	/**
	 * The first of an instance's scrapes at or after a moment: what its counters read
	 * after a window ending then.
	 */
	static Optional<Scrape> firstAtOrAfter(List<Scrape> mine, long atMs) {
		return mine.stream().filter((s) -> s.atMs() >= atMs).min(Comparator.comparingLong(Scrape::atMs));
	}

	public record CpuSample(long atMs, long cpuNanos) {
	}

	/**
	 * Writes the raw scrapes (one line per instance and scrape) next to the point's JTL,
	 * for a look at how the pool behaved over time.
	 */
	public static void write(List<Scrape> scrapes, Path file) throws IOException {
		CSVFormat format = CSVFormat.DEFAULT.builder()
			.setHeader("atMs", "instance", "max", "active", "pending", "timeouts", "acquireCount", "usageSumSeconds",
					"usageCount")
			.setRecordSeparator('\n')
			.get();
		try (Writer writer = Files.newBufferedWriter(file); CSVPrinter printer = new CSVPrinter(writer, format)) {
			for (Scrape scrape : scrapes) {
				PoolSnapshot pool = scrape.pool();
				printer.printRecord(scrape.atMs(), scrape.instance(), pool.max(), pool.active(), pool.pending(),
						pool.timeouts(), pool.acquireCount(), pool.usageSumSeconds(), pool.usageCount());
			}
		}
	}

	static List<Scrape> of(List<Scrape> scrapes, int instance) {
		List<Scrape> mine = new ArrayList<>();
		for (Scrape scrape : scrapes) {
			if (scrape.instance() == instance) {
				mine.add(scrape);
			}
		}
		return mine;
	}

}
