package org.poollab.crosscheck;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;

import org.HdrHistogram.Histogram;

/**
 * What the measured part of a run gave (the warm-up's requests are in none of it).
 */
record Outcome(Settings settings, Counts counts, Latencies latencies, Cost cost) {

	/**
	 * @param due requests the schedule made due
	 * @param sent requests written to a connection
	 * @param ok responses with a 2xx status
	 * @param errors the rest, by cause: {@code status 503}, {@code timeout}, an
	 * exception's class, or no free connection
	 */
	record Counts(long due, long sent, long ok, SortedMap<String, Long> errors) {

		long errorCount() {
			return this.errors.values().stream().mapToLong(Long::longValue).sum();
		}

	}

	/**
	 * Microsecond histograms of the 2xx responses.
	 *
	 * @param fromIntendedUs from when the schedule wanted the request sent to the end of
	 * its response: free of coordinated omission, like wrk2's
	 * @param fromSentUs from when it was written: what a closed-loop tool would report
	 * @param sendLagUs how late it was written
	 * @param slicesFromIntendedUs {@code fromIntendedUs} per slice of the run, by due
	 * time
	 */
	record Latencies(Histogram fromIntendedUs, Histogram fromSentUs, Histogram sendLagUs,
			List<Histogram> slicesFromIntendedUs) {

	}

	/**
	 * @param processCores this JVM's CPU (every thread, JIT and GC included) over the
	 * measured part, in cores
	 * @param loopCores the sending loop's thread alone
	 */
	record Cost(double processCores, double loopCores, long connectionsOpened, int mostConnectionsOpen) {

	}

	void print(PrintStream out) {
		Duration duration = this.settings.duration();
		out.printf("Open-loop check of %s: %s%n", String.join(", ", this.settings.urls()), this.settings.describe());
		out.printf(Locale.ROOT, "  sent %d of %d due (%s rps), ok %d, errors %d%s%n", this.counts.sent, this.counts.due,
				OpenLoopCheck.decimal(this.counts.sent / (duration.toNanos() / 1e9)), this.counts.ok,
				this.counts.errorCount(), this.counts.errors.isEmpty() ? "" : " " + this.counts.errors);
		out.println("  latency (ms)         p50      p90      p99    p99.9      max     mean");
		row(out, "from intended send", this.latencies.fromIntendedUs);
		row(out, "from actual send", this.latencies.fromSentUs);
		row(out, "send lag", this.latencies.sendLagUs);
		List<Histogram> slices = this.latencies.slicesFromIntendedUs;
		long sliceMs = this.settings.slice().toMillis();
		for (int i = 0; i < slices.size(); i++) {
			out.printf(Locale.ROOT, "  slice %6.1f-%6.1f s: p99 %s ms from intended send (%d responses)%n",
					i * sliceMs / 1000.0, Math.min((i + 1) * sliceMs, duration.toMillis()) / 1000.0,
					ms(slices.get(i).getValueAtPercentile(99)), slices.get(i).getTotalCount());
		}
		out.printf(Locale.ROOT,
				"  connections: %d opened, at most %d open; CPU %.3f cores (process), %.3f (sending loop)%n",
				this.cost.connectionsOpened, this.cost.mostConnectionsOpen, this.cost.processCores,
				this.cost.loopCores);
		out.println(resultLine());
	}

	/** One line of {@code key=value} pairs for scripts. */
	String resultLine() {
		Histogram intended = this.latencies.fromIntendedUs;
		Histogram sent = this.latencies.fromSentUs;
		Histogram lag = this.latencies.sendLagUs;
		return String.format(Locale.ROOT,
				"result rate=%s arrivals=%s duration_s=%s due=%d sent=%d ok=%d errors=%d"
						+ " p50_ms=%s p90_ms=%s p99_ms=%s p999_ms=%s max_ms=%s mean_ms=%s"
						+ " sent_p50_ms=%s sent_p99_ms=%s sent_max_ms=%s"
						+ " send_lag_p50_ms=%s send_lag_p99_ms=%s send_lag_max_ms=%s"
						+ " connections_opened=%d cpu_cores=%.3f loop_cpu_cores=%.3f",
				OpenLoopCheck.decimal(this.settings.rateRps()),
				this.settings.arrivals().name().toLowerCase(Locale.ROOT),
				OpenLoopCheck.decimal(this.settings.duration().toNanos() / 1e9), this.counts.due, this.counts.sent,
				this.counts.ok, this.counts.errorCount(), ms(intended.getValueAtPercentile(50)),
				ms(intended.getValueAtPercentile(90)), ms(intended.getValueAtPercentile(99)),
				ms(intended.getValueAtPercentile(99.9)), ms(intended.getMaxValue()), ms(intended.getMean()),
				ms(sent.getValueAtPercentile(50)), ms(sent.getValueAtPercentile(99)), ms(sent.getMaxValue()),
				ms(lag.getValueAtPercentile(50)), ms(lag.getValueAtPercentile(99)), ms(lag.getMaxValue()),
				this.cost.connectionsOpened, this.cost.processCores, this.cost.loopCores);
	}

	private static void row(PrintStream out, String name, Histogram us) {
		out.printf(Locale.ROOT, "  %-18s %8s %8s %8s %8s %8s %8s%n", name, ms(us.getValueAtPercentile(50)),
				ms(us.getValueAtPercentile(90)), ms(us.getValueAtPercentile(99)), ms(us.getValueAtPercentile(99.9)),
				ms(us.getMaxValue()), ms(us.getMean()));
	}

	private static String ms(double us) {
		return String.format(Locale.ROOT, "%.3f", us / 1000.0);
	}

}
