package org.poollab.bench.results;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.poollab.service.system.Refusals;

/**
 * A run's directory, {@code <outputDirectory>/<start time>}, with {@code latest} pointing
 * at it. {@code results.json} and its CSV twin are rewritten after every point, each
 * atomically, so an interrupted sweep leaves every finished point on disk. The CSV leaves
 * a figure empty where the JSON says it is unknown (late starts -1, refusals not counted,
 * no server-side latency), so a spreadsheet does not average an "unknown" in. The
 * server-side latency columns are the slowest instance's; the JSON has every instance's.
 */
public final class ResultsStore {

	/** What the sweep writes and the report reads. */
	public static final String RESULTS_JSON = "results.json";

	static final String RESULTS_CSV = "results.csv";

	private static final DateTimeFormatter RUN_NAME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
		.withZone(ZoneOffset.UTC);

	private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

	private final Path directory;

	private ResultsStore(Path directory) {
		this.directory = directory;
	}

	public static ResultsStore create(Path outputDirectory, Instant startedAt) throws IOException {
		Path directory = newRunDirectory(outputDirectory, startedAt);
		Path latest = directory.resolveSibling("latest");
		Files.deleteIfExists(latest);
		Files.createSymbolicLink(latest, directory.getFileName());
		return new ResultsStore(directory);
	}

	/**
	 * A new directory for a run, named for its start in UTC ({@code 20261124-203608}),
	 * {@code -2}, {@code -3}... when that name is taken.
	 * @param outputDirectory where runs go
	 * @param startedAt when the run started
	 * @return the directory, created
	 * @throws IOException if it cannot be created
	 */
	public static Path newRunDirectory(Path outputDirectory, Instant startedAt) throws IOException {
		Path base = outputDirectory.toAbsolutePath().normalize();
		String name = RUN_NAME.format(startedAt);
		Path directory = base.resolve(name);
		for (int i = 2; Files.exists(directory); i++) {
			directory = base.resolve(name + "-" + i);
		}
		return Files.createDirectories(directory);
	}

	public Path directory() {
		return this.directory;
	}

	/**
	 * Writes the results, each point with the queueing model's prediction beside it
	 * ({@link Predictions}, recomputed from the points so far), and returns what was
	 * written: the one place results get their predictions, so what is written, reported
	 * and returned to the sweep is the same.
	 * @param measured the results so far
	 * @return the results as written, with the model beside every point
	 * @throws IOException if a file cannot be written
	 */
	public SweepResults write(SweepResults measured) throws IOException {
		SweepResults results = stored(measured);
		Path json = this.directory.resolve(RESULTS_JSON + ".tmp");
		JSON.writeValue(json.toFile(), results);
		Files.move(json, this.directory.resolve(RESULTS_JSON), StandardCopyOption.ATOMIC_MOVE,
				StandardCopyOption.REPLACE_EXISTING);
		Path csv = this.directory.resolve(RESULTS_CSV + ".tmp");
		try (Writer writer = Files.newBufferedWriter(csv);
				CSVPrinter printer = new CSVPrinter(writer, CSVFormat.DEFAULT.builder().setHeader(HEADER).get())) {
			for (Point point : results.points()) {
				printer.printRecord(row(point));
			}
		}
		Files.move(csv, this.directory.resolve(RESULTS_CSV), StandardCopyOption.ATOMIC_MOVE,
				StandardCopyOption.REPLACE_EXISTING);
		return results;
	}

	/**
	 * Results as the store holds them, written or read: the queueing model beside every
	 * point, computed from the points (so a file written before the model, or by an
	 * earlier model, reads with today's), the one home of {@link Predictions}. A model
	 * that cannot be computed loses the model (the report then shows none), never the
	 * measured points: the store still writes them.
	 */
	private static SweepResults stored(SweepResults results) {
		try {
			return results.withPredictions();
		}
		catch (RuntimeException ex) {
			System.err.println("The queueing model could not be computed, so no point carries one: " + ex);
			return results;
		}
	}

	/** The instances' refusal reasons, each a column of its own. */
	static final List<String> REFUSAL_REASONS = Refusals.Reason.tags();

	private static final String[] HEADER = Stream
		.of(List.of("topology", "instances", "loadBalancer", "poolSize", "rateRps", "arrivals", "repeat",
				"warmupSeconds", "durationSeconds", "achievedRps", "throughputRps", "samples", "errors",
				"errorPercent"),
				REFUSAL_REASONS.stream().map((reason) -> "refused_" + reason.replace('-', '_')).toList(),
				List.of("meanMs", "p50Ms", "p95Ms", "p99Ms", "p999Ms", "maxMs", "serverP50Ms", "serverP99Ms",
						"failedMaxMs", "observedPoolMax", "poolVerified", "peakActive", "peakPending", "acquireP99Ms",
						"usageMeanMs", "timeouts", "telemetrySamples", "loadGeneratorCpuCores", "startLagP99Ms",
						"outcome", "instanceCpus", "instanceHeap", "tomcatThreads", "threads", "stack", "vendor",
						"pgbouncerPoolSize", "pgbouncerClientPoolSize", "pgbouncerPeakServerConnections",
						"pgbouncerPeakServerActive", "pgbouncerPeakClientsWaiting", "pgbouncerMaxWaitMs",
						"crossCheckP50Ms", "crossCheckP99Ms", "crossCheckSendLagP99Ms", "crossCheckSentRps",
						"crossCheckErrors", "crossCheckAgrees", "p50LowMs", "p50HighMs", "p99LowMs", "p99HighMs"))
		.flatMap(List::stream)
		.toArray(String[]::new);

	private static Object[] row(Point p) {
		PgBouncerFacts b = p.pgbouncer();
		List<Object> row = new ArrayList<>(List.of(p.topology(), p.instances(), p.loadBalancer(),
				SweepResults.poolLabel(p.poolSize()), p.rateRps(), p.arrivals(), p.repeat(), p.warmupSeconds(),
				p.durationSeconds(), round(p.achievedRps()), round(p.throughputRps()), p.samples(), p.errors(),
				round(p.errorPercent())));
		// Empty, not 0, when the instances did not count refusals (older results).
		REFUSAL_REASONS.forEach((reason) -> row.add(p.refusals().isEmpty() ? "" : p.refused(reason)));
		row.addAll(Arrays.asList(round(p.latency().meanMs()), p.latency().p50Ms(), p.latency().p95Ms(),
				p.latency().p99Ms(), p.latency().p999Ms(), p.latency().maxMs(), unknownAsEmpty(p.serverP50Ms()),
				unknownAsEmpty(p.serverP99Ms()), p.failedMaxMs(),
				String.join(" ", p.pool().observedMax().stream().map(String::valueOf).toList()), p.verified(),
				p.pool().peakActive(), p.pool().peakPending(), round(p.pool().acquireP99Ms()),
				round(p.pool().usageMeanMs()), p.pool().timeouts(), p.pool().telemetrySamples(),
				round(p.loadGeneratorCpuCores()), unknownAsEmpty(p.startLagP99Ms()), p.outcome(), p.limits().cpus(),
				p.limits().heap(), p.limits().tomcatThreads(), p.limits().threads().model(), p.limits().stack().value(),
				p.limits().vendor().propertyValue(), (b != null) ? b.observedPoolSize() : "",
				(b != null) ? b.clientPoolSize() : "", (b != null) ? b.peakServerConnections() : "",
				(b != null) ? b.peakServerActive() : "", (b != null) ? b.peakClientsWaiting() : "",
				(b != null) ? round(b.maxWaitMs()) : ""));
		CrossCheckResult c = p.crossCheck();
		row.addAll((c != null) ? List.of(round(c.p50Ms()), round(c.p99Ms()), round(c.sendLagP99Ms()),
				round(c.sentRps()), c.errors(), c.agrees()) : List.of("", "", "", "", "", ""));
		return row.toArray();
	}

	/** An interval's two bounds; empty when it was not recorded. */
	private static List<String> bounds(Interval interval) {
		return (interval != null) ? List.of(round(interval.lowMs()), round(interval.highMs())) : List.of("", "");
	}

	/** Empty where the JSON says -1 (unknown). */
	private static String unknownAsEmpty(double value) {
		return (value >= 0) ? round(value) : "";
	}

	private static String round(double value) {
		return String.format(Locale.ROOT, "%.3f", value);
	}

	/**
	 * Read a {@code results.json}, of this lab's shape or an earlier one.
	 * @param resultsFile the file
	 * @return the results it holds
	 * @throws IOException if it cannot be read
	 */
	public static SweepResults read(Path resultsFile) throws IOException {
		return readWithShape(resultsFile).results();
	}

	/**
	 * The shapes of {@code results.json} the lab reads.
	 */
	public enum Shape {

		/**
		 * Each point's figures grouped (window, requests, generator, server), as written
		 * now.
		 */
		GROUPED("grouped points, as this lab writes them"),

		/** Each point's figures side by side, as the lab first wrote them. */
		FLAT("flat points, written by the lab until 2026-11-24: read and grouped");

		private final String description;

		Shape(String description) {
			this.description = description;
		}

		public String description() {
			return this.description;
		}

	}

	/**
	 * What a {@code results.json} held, and in which shape it was written.
	 *
	 * @param results the results
	 * @param shape the shape met
	 */
	public record Read(SweepResults results, Shape shape) {
	}

	/**
	 * Read a {@code results.json} and say which shape it met: results of an earlier lab
	 * (points flat) are grouped as the lab's records are now, so every report reads the
	 * same records.
	 * @param resultsFile the file
	 * @return the results and their shape
	 * @throws IOException if it cannot be read
	 */
	public static Read readWithShape(Path resultsFile) throws IOException {
		if (!Files.isRegularFile(resultsFile)) {
			throw new IOException("No " + resultsFile + ": run the sweep first, or pass the run directory that holds "
					+ RESULTS_JSON);
		}
		JsonNode tree = JSON.readTree(resultsFile.toFile());
		List<ObjectNode> points = new ArrayList<>();
		tree.path("points").forEach((point) -> points.add((ObjectNode) point));
		tree.path("confirmations").forEach((confirmation) -> {
			if (confirmation.path("point").isObject()) {
				points.add((ObjectNode) confirmation.get("point"));
			}
		});
		boolean flat = points.stream().anyMatch((point) -> !point.has("requests"));
		if (flat) {
			points.forEach(ResultsStore::group);
		}
		points.forEach(ResultsStore::spanUnrecorded);
		if (tree instanceof ObjectNode results && !results.has("connectionsPerRequest")) {
			// Written before the setting was recorded: one connection per request.
			results.put("connectionsPerRequest", SweepResults.ONE_CONNECTION_PER_REQUEST);
		}
		return new Read(stored(JSON.treeToValue(tree, SweepResults.class)), flat ? Shape.FLAT : Shape.GROUPED);
	}

	/** A flat point's figures moved into the groups {@link Point} has now. */
	private static void group(ObjectNode point) {
		if (point.has("requests")) {
			return;
		}
		ObjectNode window = point.putObject("window");
		move(point, "warmupSeconds", window, "warmupSeconds");
		move(point, "durationSeconds", window, "durationSeconds");
		ObjectNode requests = point.putObject("requests");
		for (String name : List.of("achievedRps", "samples", "errors", "statusCounts", "failedMaxMs")) {
			move(point, name, requests, name);
		}
		ObjectNode generator = point.putObject("generator");
		move(point, "loadGeneratorCpuCores", generator, "cpuCores");
		move(point, "startLagP99Ms", generator, "startLagP99Ms");
		ObjectNode server = point.putObject("server");
		move(point, "refusals", server, "refusals");
		move(point, "serverLatency", server, "latency");
	}

	/**
	 * Results written before {@link ServerLatency#spanMs()} was recorded: 0, which no
	 * measured span is.
	 */
	private static void spanUnrecorded(ObjectNode point) {
		point.path("server").path("latency").forEach((latency) -> {
			if (latency instanceof ObjectNode instance && !instance.has("spanMs")) {
				instance.put("spanMs", 0L);
			}
		});
	}

	private static void move(ObjectNode from, String name, ObjectNode to, String as) {
		JsonNode value = from.remove(name);
		if (value != null) {
			to.set(as, value);
		}
	}

}
