package org.poollab.bench.results;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.text.Durations;

/**
 * What the database's CPU carries on this box, measured before a grid whose requests cost
 * it CPU ({@code bench.holdCpu}): the service's transaction with its CPU hold, back to
 * back on {@code connections} at once with nothing else running. The {@code contention}
 * preset's rates are shares of {@link #rps()}.
 *
 * @param rps transactions completed a second
 * @param connections how many ran at once: twice the box's cores
 * @param cpuMsAsked the CPU hold each transaction ran, milliseconds
 * @param cpuMsPerRequest what each transaction cost the database's processes,
 * milliseconds; {@code null} where the lab cannot read them (a database it did not start)
 * @param databaseCores the cores the database's processes used meanwhile; {@code null}
 * likewise
 */
public record CpuCeiling(double rps, int connections, double cpuMsAsked, @Nullable Double cpuMsPerRequest,
		@Nullable Double databaseCores) {

	/** The measurement in a sentence, for the console and the report. */
	public String describe() {
		String cpu = (this.cpuMsPerRequest != null && this.databaseCores != null) ? String.format(Locale.ROOT,
				", %.2f ms of the database's CPU each on %.2f cores", this.cpuMsPerRequest, this.databaseCores)
				: ", the database's CPU not readable here";
		return String.format(Locale.ROOT,
				"the database's CPU carries %.0f rps here: the service's transaction with %s ms of CPU, back to back on %d "
						+ "connections%s",
				this.rps, Durations.ms(this.cpuMsAsked), this.connections, cpu);
	}

}
