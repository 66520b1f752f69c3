package org.poollab.bench.telemetry;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.jspecify.annotations.Nullable;

import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.results.EngineLoad;
import org.poollab.bench.results.Latency;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Second;

/**
 * What JMeter saw in a point's measured window, cut by timestamp out of the raw samples
 * of the run that carried it; a request belongs to the window by its start time.
 * Successful and failed requests are kept apart, so a flood of fast refusals cannot make
 * saturation look quick.
 *
 * @param startMs window start, epoch milliseconds
 * @param endMs window end (exclusive)
 * @param samples requests that started in the window
 * @param errors those that failed
 * @param statusCounts responses by status code (or JMeter's text when there was none)
 * @param latency successful requests' latency
 * @param failedMaxMs slowest failed request
 * @param startLagP99Ms how late the window's requests left JMeter against their even
 * schedule, 99th percentile ({@link #UNKNOWN_LAG} for random arrivals, whose schedule
 * only JMeter knows)
 */
public record LoadWindow(long startMs, long endMs, long samples, long errors, Map<String, Long> statusCounts,
		Latency latency, double failedMaxMs, double startLagP99Ms) {

	static final double UNKNOWN_LAG = -1;

	/**
	 * JMeter records whole milliseconds; an hour bounds any request the plan lets run.
	 */
	static final long HIGHEST_MS = Duration.ofHours(1).toMillis();

	/**
	 * The window [startMs, endMs) of a run's samples.
	 * @param all the run's samples, in order of start
	 * @param evenRateRps the rate of evenly spaced arrivals in the window's phase, from
	 * one generator, as the lab sent it (fractional in slow motion); 0 when the schedule
	 * is not known (random arrivals, several engines)
	 * @param phaseStartMs when the window's phase began (its rate's schedule is anchored
	 * there), at or before {@code startMs}
	 */
	public static LoadWindow of(List<Sample> all, long startMs, long endMs, double evenRateRps, long phaseStartMs) {
		Histogram success = new Histogram(HIGHEST_MS, 3);
		long[] successMs = new long[Math.max(16, all.size())]; // in order of sending, for
																// the intervals
		int successes = 0;
		Map<String, Long> statusCounts = new TreeMap<>();
		long samples = 0;
		long errors = 0;
		long failedMaxMs = 0;
		for (Sample sample : all) {
			if (sample.startMs() < startMs || sample.startMs() >= endMs) {
				continue;
			}
			samples++;
			statusCounts.merge(sample.code(), 1L, Long::sum);
			if (sample.success()) {
				success.recordValue(Math.min(sample.elapsedMs(), HIGHEST_MS));
				successMs[successes++] = sample.elapsedMs();
			}
			else {
				errors++;
				failedMaxMs = Math.max(failedMaxMs, sample.elapsedMs());
			}
		}
		double lag = UNKNOWN_LAG;
		if (evenRateRps > 0) {
			List<Sample> phase = all.stream()
				.filter((sample) -> sample.startMs() >= phaseStartMs && sample.startMs() < endMs)
				.toList();
			lag = startLagP99Ms(phase, evenRateRps, startMs, endMs);
		}
		BlockBootstrap.Intervals intervals = BlockBootstrap.of(Arrays.copyOf(successMs, successes),
				successes * 1000.0 / Math.max(1, endMs - startMs));
		return new LoadWindow(startMs, endMs, samples, errors, statusCounts, latency(success, intervals), failedMaxMs,
				lag);
	}

	/**
	 * The window [startMs, endMs) second by second: requests started, successful, their
	 * p99, and the most requests pending for a connection on any instance in the scrapes
	 * of that second (the panel JMeter's and Gatling's dashboards show).
	 * @param all the run's samples, in order of start
	 * @param scrapes the run's pool scrapes
	 */
	public static List<Second> seconds(List<Sample> all, long startMs, long endMs, List<Telemetry.Scrape> scrapes) {
		int count = (int) Math.max(1, (endMs - startMs + 999) / 1000);
		Histogram[] ok = new Histogram[count];
		long[] sent = new long[count];
		for (Sample sample : all) {
			if (sample.startMs() < startMs || sample.startMs() >= endMs) {
				continue;
			}
			int second = (int) ((sample.startMs() - startMs) / 1000);
			sent[second]++;
			if (sample.success()) {
				if (ok[second] == null) {
					ok[second] = new Histogram(HIGHEST_MS, 2);
				}
				ok[second].recordValue(Math.min(sample.elapsedMs(), HIGHEST_MS));
			}
		}
		int[] pending = new int[count];
		Arrays.fill(pending, -1);
		for (Telemetry.Scrape scrape : scrapes) {
			if (scrape.atMs() >= startMs && scrape.atMs() < endMs && scrape.pool() != null) {
				int second = (int) ((scrape.atMs() - startMs) / 1000);
				pending[second] = Math.max(pending[second], (int) scrape.pool().pending());
			}
		}
		List<Second> seconds = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			seconds.add(new Second(i, sent[i], (ok[i] != null) ? ok[i].getTotalCount() : 0,
					(ok[i] != null) ? ok[i].getValueAtPercentile(99) : 0, pending[i]));
		}
		return seconds;
	}

	/**
	 * A generator that falls behind its schedule sends requests late, and their latency
	 * starts only when they leave: the wait is hidden from every percentile (coordinated
	 * omission inside the generator). With even arrivals the k-th request of a phase is
	 * due k / rate after the phase's first; the on-time anchor is the request least late
	 * against that grid, so a generator that never lags shows 0 (to JMeter's millisecond
	 * resolution).
	 * @param phase the samples of one constant-rate phase, from its start
	 */
	static double startLagP99Ms(List<Sample> phase, double rateRps, long startMs, long endMs) {
		Histogram lag = startLags(phase, rateRps, startMs, endMs);
		return (lag.getTotalCount() > 0) ? lag.getValueAtPercentile(99) : 0;
	}

	/** Each request's lag, as {@link #startLagP99Ms} reads it. */
	private static Histogram startLags(List<Sample> phase, double rateRps, long startMs, long endMs) {
		long[] starts = phase.stream().mapToLong(Sample::startMs).sorted().toArray();
		double intervalMs = 1000.0 / rateRps;
		double anchorMs = Double.MAX_VALUE;
		for (int k = 0; k < starts.length; k++) {
			anchorMs = Math.min(anchorMs, starts[k] - k * intervalMs);
		}
		Histogram lag = new Histogram(HIGHEST_MS, 3);
		for (int k = 0; k < starts.length; k++) {
			if (starts[k] >= startMs && starts[k] < endMs) {
				lag.recordValue(Math.min(HIGHEST_MS, Math.round(starts[k] - k * intervalMs - anchorMs)));
			}
		}
		return lag;
	}

	/**
	 * What each remote engine sent in the window [startMs, endMs). Every engine runs the
	 * whole plan at its share of the rate, on its own schedule and stamped by its own
	 * clock (checked against the lab's before the sweep): with even arrivals each
	 * engine's lag is read against its own even schedule, as one local JMeter's is, and
	 * the fleet's p99 over every engine's requests is the window's.
	 * @param all the run's samples, in order of start, with their thread names
	 * @param engines the engines as JMeter names them ({@code host:port}); an engine's
	 * threads are called {@code host:port-...}
	 * @param evenRatePerEngineRps each engine's rate of evenly spaced arrivals; 0 for
	 * random arrivals, whose schedule only the engines know
	 * @param phaseStartMs when the window's phase began, at or before {@code startMs}
	 */
	public static Engines engines(List<Sample> all, List<String> engines, long startMs, long endMs,
			double evenRatePerEngineRps, long phaseStartMs) {
		List<EngineLoad> loads = new ArrayList<>();
		Histogram fleet = new Histogram(HIGHEST_MS, 3);
		for (String engine : engines) {
			List<Sample> phase = all.stream()
				.filter((sample) -> sample.thread().startsWith(engine + "-"))
				.filter((sample) -> sample.startMs() >= phaseStartMs && sample.startMs() < endMs)
				.toList();
			long sent = phase.stream().filter((sample) -> sample.startMs() >= startMs).count();
			double lagP99Ms = UNKNOWN_LAG;
			if (evenRatePerEngineRps > 0) {
				Histogram lag = startLags(phase, evenRatePerEngineRps, startMs, endMs);
				fleet.add(lag);
				lagP99Ms = (lag.getTotalCount() > 0) ? lag.getValueAtPercentile(99) : 0;
			}
			loads.add(new EngineLoad(engine, sent * 1000.0 / (endMs - startMs), lagP99Ms));
		}
		double fleetP99Ms = (evenRatePerEngineRps <= 0) ? UNKNOWN_LAG
				: (fleet.getTotalCount() > 0) ? fleet.getValueAtPercentile(99) : 0;
		return new Engines(loads, fleetP99Ms);
	}

	/**
	 * What the remote engines sent in a window.
	 *
	 * @param loads each engine's
	 * @param startLagP99Ms the p99 of every engine's late starts, each against its own
	 * schedule; {@link #UNKNOWN_LAG} for random arrivals
	 */
	public record Engines(List<EngineLoad> loads, double startLagP99Ms) {
	}

	public double achievedRps() {
		return this.samples * 1000.0 / (this.endMs - this.startMs);
	}

	/** The window's requests as a point records them. */
	public Point.Requests requests() {
		return new Point.Requests(achievedRps(), this.samples, this.errors, this.statusCounts, this.failedMaxMs);
	}

	private static Latency latency(Histogram histogram, BlockBootstrap.@Nullable Intervals intervals) {
		if (histogram.getTotalCount() == 0) {
			return new Latency(0, 0, 0, 0, 0, 0);
		}
		return new Latency(histogram.getMean(), histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(95),
				histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9), histogram.getMaxValue(),
				(intervals != null) ? intervals.p50() : null, (intervals != null) ? intervals.p99() : null);
	}

	/** A run's samples, in order of start; none when JMeter wrote only the header. */
	public static List<Sample> readSamples(Path jtl) throws IOException {
		if (!Files.isRegularFile(jtl)) {
			throw new LabFailureException("JMeter wrote no results file " + jtl);
		}
		List<Sample> samples = new ArrayList<>();
		CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();
		try (Reader reader = Files.newBufferedReader(jtl); CSVParser parser = CSVParser.parse(reader, format)) {
			for (CSVRecord record : parser) {
				samples.add(new Sample(Long.parseLong(record.get("timeStamp")), Long.parseLong(record.get("elapsed")),
						record.get("responseCode"), Boolean.parseBoolean(record.get("success")),
						record.isMapped(THREAD_NAME) ? record.get(THREAD_NAME) : ""));
			}
		}
		samples.sort(Comparator.comparingLong(Sample::startMs));
		return samples;
	}

	/** JMeter's column of the thread's name, written for remote engines only. */
	private static final String THREAD_NAME = "threadName";

	/**
	 * One request.
	 *
	 * @param thread the JMeter thread that sent it, empty when not recorded (JMeter
	 * here); a remote engine's thread names begin with the engine's {@code host:port}
	 */
	public record Sample(long startMs, long elapsedMs, String code, boolean success, String thread) {

		public Sample(long startMs, long elapsedMs, String code, boolean success) {
			this(startMs, elapsedMs, code, success, "");
		}

	}

}
