package org.poollab.service.hold;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hold timer as {@code /actuator/prometheus} shows it: how many holds, how long in
 * all, and its histogram, to show where the holds fell when an assertion fails. The
 * services' tests take one before and one after their requests.
 *
 * @param count holds recorded
 * @param sumSeconds their total
 * @param buckets the histogram, cumulative counts by upper bound as written
 */
public record HoldScrape(double count, double sumSeconds, Map<String, Double> buckets) {

	private static final Pattern SERIES = Pattern.compile(
			"^" + ConnectionHold.PROMETHEUS_NAME + "_(count|sum|bucket)(?:\\{(?:le=\"([^\"]+)\")?\\})? (\\S+)$",
			Pattern.MULTILINE);

	public static HoldScrape of(String prometheus) {
		double count = Double.NaN;
		double sum = Double.NaN;
		Map<String, Double> buckets = new LinkedHashMap<>();
		Matcher series = SERIES.matcher(prometheus);
		while (series.find()) {
			double value = Double.parseDouble(series.group(3));
			switch (series.group(1)) {
				case "count" -> count = value;
				case "sum" -> sum = value;
				default -> buckets.put(series.group(2), value);
			}
		}
		assertThat(count).as("%s_count scraped", ConnectionHold.PROMETHEUS_NAME).isNotNaN();
		assertThat(sum).as("%s_sum scraped", ConnectionHold.PROMETHEUS_NAME).isNotNaN();
		return new HoldScrape(count, sum, buckets);
	}

	/** The holds recorded since {@code before}. */
	public HoldScrape since(HoldScrape before) {
		Map<String, Double> buckets = new LinkedHashMap<>();
		this.buckets.forEach((le, value) -> buckets.put(le, value - before.buckets.getOrDefault(le, 0.0)));
		return new HoldScrape(this.count - before.count, this.sumSeconds - before.sumSeconds, buckets);
	}

	public double meanMs() {
		return this.sumSeconds / this.count * 1000;
	}

	/**
	 * One hold a request, each at least the hold: their mean no shorter than
	 * {@link #assertHoldsAtLeast} allows, which a missing or unpadded hold fails. And
	 * their median in a histogram bucket below twice the hold, which a hold padded twice
	 * in full fails (40 ms for 20, in the 44.7 ms bucket) and a busy machine does not,
	 * whose requests wake late from their waits (a median in the 33.6 ms bucket for 20 ms
	 * beside two builds on a 2-core machine, 2026-11-28). Two pads each shortened by the
	 * largest correction (36 ms) may share the 39.1 ms bucket: that each request is
	 * padded once, by what remains of its hold, HoldTransactionManagerTests (JDBC) and
	 * ConnectionsTests (reactive) show without a clock. How close the holds come is
	 * measured by the lab on every point, which it flags 10 % off.
	 */
	public void assertHolds(String service, int requests, double holdMs) {
		assertHoldsAtLeast(service, requests, holdMs);
		assertThat(medianBucketMs())
			.as("%s: median hold's bucket, ms (holds by bucket, seconds: %s)", service, histogram())
			.isLessThan(2 * holdMs);
	}

	/** The upper bound of the histogram bucket the median hold falls in, in ms. */
	public double medianBucketMs() {
		for (Map.Entry<String, Double> bucket : this.buckets.entrySet()) {
			if (bucket.getValue() >= this.count / 2) {
				return bucket.getKey().equals("+Inf") ? Double.POSITIVE_INFINITY
						: Double.parseDouble(bucket.getKey()) * 1000;
			}
		}
		return Double.POSITIVE_INFINITY;
	}

	/**
	 * One hold a request, each at least the hold less the padding's largest correction
	 * (less 10 %): requests whose own work may take longer than the hold on a busy
	 * machine, which no pad shortens, and whose pad the learnt overshoot of the requests
	 * before may shorten by up to {@link HoldPadding#MAX_CORRECTION_NANOS}.
	 */
	public void assertHoldsAtLeast(String service, int requests, double holdMs) {
		assertThat(this.count).as("%s: holds recorded", service).isEqualTo(requests);
		assertThat(meanMs()).as("%s: mean hold, ms (holds by bucket, seconds: %s)", service, histogram())
			.isGreaterThanOrEqualTo(0.9 * (holdMs - HoldPadding.MAX_CORRECTION_NANOS / 1e6));
	}

	/** How many holds fell in each bucket that has any, e.g. {@code ≤0.0224: 15}. */
	public String histogram() {
		StringJoiner text = new StringJoiner(", ");
		double below = 0;
		for (Map.Entry<String, Double> bucket : this.buckets.entrySet()) {
			if (bucket.getValue() > below) {
				text.add("≤%s: %.0f".formatted(bucket.getKey(), bucket.getValue() - below));
				below = bucket.getValue();
			}
		}
		return text.toString();
	}

}
