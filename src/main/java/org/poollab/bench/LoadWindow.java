package org.poollab.bench;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

import org.poollab.bench.SweepResults.Latency;

/**
 * What JMeter saw in a point's measured window, from its raw samples: the window starts
 * {@code warmup} after the schedule's origin (JMeter's test start) and lasts
 * {@code duration}; a request belongs to it by its start time. Successful and failed
 * requests are kept apart, so a flood of fast refusals cannot make saturation look quick.
 *
 * @param startMs window start, epoch milliseconds
 * @param endMs window end (exclusive)
 * @param samples requests that started in the window
 * @param errors those that failed
 * @param statusCounts responses by status code (or JMeter's text when there was none)
 * @param latency successful requests' latency
 * @param failedMaxMs slowest failed request
 */
record LoadWindow(long startMs, long endMs, long samples, long errors, Map<String, Long> statusCounts, Latency latency,
		double failedMaxMs) {

	/**
	 * JMeter records whole milliseconds; an hour bounds any request the plan lets run.
	 */
	private static final long HIGHEST_MS = Duration.ofHours(1).toMillis();

	static LoadWindow read(Path jtl, long originMs, Duration warmup, Duration duration) throws IOException {
		List<Sample> all = readSamples(jtl);
		if (all.isEmpty()) {
			throw new LabFailureException("JMeter recorded no samples in " + jtl);
		}
		long startMs = originMs + warmup.toMillis();
		long endMs = startMs + duration.toMillis();
		Histogram success = new Histogram(HIGHEST_MS, 3);
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
			}
			else {
				errors++;
				failedMaxMs = Math.max(failedMaxMs, sample.elapsedMs());
			}
		}
		return new LoadWindow(startMs, endMs, samples, errors, statusCounts, latency(success), failedMaxMs);
	}

	double achievedRps() {
		return this.samples * 1000.0 / (this.endMs - this.startMs);
	}

	private static Latency latency(Histogram histogram) {
		if (histogram.getTotalCount() == 0) {
			return new Latency(0, 0, 0, 0, 0, 0);
		}
		return new Latency(histogram.getMean(), histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(95),
				histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9), histogram.getMaxValue());
	}

	private static List<Sample> readSamples(Path jtl) throws IOException {
		if (!Files.isRegularFile(jtl)) {
			throw new LabFailureException("JMeter wrote no results file " + jtl);
		}
		List<Sample> samples = new ArrayList<>();
		CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();
		try (Reader reader = Files.newBufferedReader(jtl); CSVParser parser = CSVParser.parse(reader, format)) {
			for (CSVRecord record : parser) {
				samples.add(new Sample(Long.parseLong(record.get("timeStamp")), Long.parseLong(record.get("elapsed")),
						record.get("responseCode"), Boolean.parseBoolean(record.get("success"))));
			}
		}
		return samples;
	}

	private record Sample(long startMs, long elapsedMs, String code, boolean success) {
	}

}
