package org.poollab.service.hold;

import java.time.Duration;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The emulated connection hold, {@code lab.hold.*}, off unless {@code lab.hold.mean} is
 * set: the service then holds each request's connection for a hold drawn for it
 * ({@link HoldTime}), so that the lab can measure a pool under holds a team reads off its
 * own service. Checked when bound, so a bad value or a misspelt setting stops start-up
 * rather than leaving the hold off; {@link HoldSettingFailureAnalyzer} says which in one
 * line.
 *
 * @param mean the mean hold; unset: no emulated hold, the service never waits
 * @param p99 the hold's 99th percentile, for a lognormal hold; only with a mean
 * @param place where the hold is spent: the database waits or the application does
 * @param seed the draws' seed: one seed, one sequence of holds
 * @param cpu database CPU each request's transaction also costs ({@link CpuHold}),
 * besides any waiting hold; unset: none
 * @param histogram the hold's distribution as a team measured it
 * ({@link HoldHistogram#written()}), scaled to the mean, in place of the p99; only with a
 * mean
 * @param uses connection uses per request, each a transaction of its own holding a hold
 * drawn for it: the whole part every request, the fraction drawn; only with a mean
 */
@ConfigurationProperties(prefix = ConnectionHold.PROPERTIES_PREFIX, ignoreUnknownFields = false)
public record HoldProperties(@Nullable Duration mean, @Nullable Duration p99, @DefaultValue("database") HoldPlace place,
		@DefaultValue("1") long seed, @Nullable Duration cpu, @Nullable String histogram,
		@DefaultValue("1") double uses) {

	static final String MEAN = ConnectionHold.PROPERTIES_PREFIX + ".mean";

	static final String P99 = ConnectionHold.PROPERTIES_PREFIX + ".p99";

	static final String CPU = ConnectionHold.PROPERTIES_PREFIX + ".cpu";

	static final String HISTOGRAM = ConnectionHold.PROPERTIES_PREFIX + ".histogram";

	static final String USES = ConnectionHold.PROPERTIES_PREFIX + ".uses";

	/** The most connection uses per request. */
	public static final double MAX_USES = 100;

	/** What {@code lab.hold.uses} accepts. */
	static final String USES_ALLOWED = "a number of connection uses per request from 1 to 100, e.g. 2.5";

	@ConstructorBinding
	public HoldProperties {
		if (!(uses >= 1 && uses <= MAX_USES)) {
			throw new InvalidConfigurationPropertyValueException(USES, uses, "uses per request must be from 1 to 100");
		}
		if (mean == null && (histogram != null || uses != 1)) {
			throw new InvalidConfigurationPropertyValueException((histogram != null) ? HISTOGRAM : USES,
					(histogram != null) ? histogram : uses, "it needs %s, the hold's mean".formatted(MEAN));
		}
		if (histogram != null && mean != null) {
			if (p99 != null) {
				throw new InvalidConfigurationPropertyValueException(HISTOGRAM, histogram,
						"a histogram says the p99 itself: leave %s unset".formatted(P99));
			}
			try {
				HoldHistogram.parse(histogram, millis(mean));
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidConfigurationPropertyValueException(HISTOGRAM, histogram, ex.getMessage());
			}
		}
		if (cpu != null) {
			Optional<String> cpuProblem = CpuHold.problem(cpu);
			if (cpuProblem.isPresent()) {
				throw new InvalidConfigurationPropertyValueException(CPU, written(cpu), cpuProblem.get());
			}
		}
		if (mean == null) {
			if (p99 != null) {
				throw new InvalidConfigurationPropertyValueException(P99, written(p99),
						"a p99 needs %s, the mean it spreads around".formatted(MEAN));
			}
		}
		else {
			Optional<String> meanProblem = HoldTime.problem(millis(mean), null);
			if (meanProblem.isPresent()) {
				throw new InvalidConfigurationPropertyValueException(MEAN, written(mean), meanProblem.get());
			}
			Optional<String> p99Problem = HoldTime.problem(millis(mean), (p99 != null) ? millis(p99) : null);
			if (p99Problem.isPresent()) {
				throw new InvalidConfigurationPropertyValueException(P99, written(p99),
						"%s, with %s=%s".formatted(p99Problem.get(), MEAN, written(mean)));
			}
		}
	}

	/** Without a histogram, one use per request. */
	public HoldProperties(@Nullable Duration mean, @Nullable Duration p99, HoldPlace place, long seed,
			@Nullable Duration cpu) {
		this(mean, p99, place, seed, cpu, null, 1);
	}

	/** The measured distribution to draw from, empty when none is given. */
	public Optional<HoldHistogram> histogramOfHolds() {
		return (this.histogram != null && this.mean != null)
				? Optional.of(HoldHistogram.parse(this.histogram, millis(this.mean))) : Optional.empty();
	}

	/** The hold to emulate, empty when {@code lab.hold.mean} is unset. */
	public Optional<HoldTime> hold() {
		return (this.mean != null) ? Optional.of(HoldTime.of(this.mean, this.p99)) : Optional.empty();
	}

	private static double millis(Duration duration) {
		return duration.toNanos() / 1e6;
	}

	/** As a setting would write it, e.g. {@code 20ms} or {@code 0.5ms}. */
	static String written(@Nullable Duration duration) {
		if (duration == null) {
			return "";
		}
		long nanos = duration.toNanos();
		return (nanos % 1_000_000 == 0) ? (nanos / 1_000_000) + "ms" : (nanos / 1e6) + "ms";
	}

}
