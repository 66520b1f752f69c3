package org.poollab.service.hold;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pads a request's connection hold up to a hold drawn for it: how much longer to hold on,
 * given how long the connection has been held so far. Both services pad at the last
 * moment they hold it (before the commit, after an auto-commit read).
 * <p>
 * A padded hold ends up longer than drawn: the commit and the return follow the wait, a
 * busy machine wakes the request late, and a hold drawn shorter than the request's own
 * statements cannot be padded down to it. How much longer, lately, is learnt from every
 * hold and taken off the next waits, so that the holds are the ones drawn on average, as
 * the lab's model takes them (rate times mean hold keeps the pool busy): a hold that
 * could not be as short as drawn is made up for by the longer ones' waits. Each hold
 * moves the estimate by a sixteenth of its error, counted at most 2 ms, so that one pause
 * does not shorten the next holds by much; the estimate itself stays within 2 ms, so that
 * a request whose own work nearly fills its hold (a write on a busy machine) is never
 * left far short of it.
 * <p>
 * The database's sleep is too coarse for the rest of a wait: PostgreSQL's
 * {@code pg_sleep} rounds what is left up to a whole millisecond, so that any wait below
 * one takes one, and whole ones often take one more ({@link #databaseSleepNanos(long)}).
 */
public final class HoldPadding {

	/**
	 * The most one hold's error counts as, and the most the waits are shortened by: a
	 * padded hold ends no more than this short of the one drawn.
	 */
	public static final long MAX_CORRECTION_NANOS = 2_000_000;

	private static final int GAIN_SHIFT = 4;

	/**
	 * How long before the end of a wait the database's sleep is to end: what
	 * {@code pg_sleep} may sleep beyond the whole milliseconds it is asked for (a
	 * millisecond more, and its round trip).
	 */
	static final long SLEEP_MARGIN_NANOS = 1_500_000;

	private static final long NANOS_PER_MS = 1_000_000;

	private static final Logger logger = LoggerFactory.getLogger(HoldPadding.class);

	private final DoubleSupplier holdsMs;

	private final HoldPlace place;

	/** How much longer than drawn padded holds end up, lately. */
	private final AtomicLong excessNanos = new AtomicLong();

	/** Connection uses per request beyond the first, the fraction drawn. */
	private final double extraUses;

	/**
	 * Draws the fraction of a use, apart from the holds' own sequence, stratified like
	 * them.
	 */
	private final StratifiedUniform usesDrawn;

	/** Each draw as drawn. */
	private final Timer drawn;

	private HoldPadding(DoubleSupplier holdsMs, HoldPlace place, long seed, double uses, Timer drawn) {
		this.holdsMs = holdsMs;
		this.drawn = drawn;
		this.place = place;
		this.extraUses = uses - 1;
		this.usesDrawn = new StratifiedUniform(~seed);
	}

	/**
	 * The padding {@code lab.hold.*} asks for, empty when it asks for none; its draws not
	 * timed.
	 */
	public static Optional<HoldPadding> of(HoldProperties properties) {
		return of(properties, new SimpleMeterRegistry());
	}

	/**
	 * The padding {@code lab.hold.*} asks for, empty when it asks for none, every draw
	 * recorded as {@link ConnectionHold#DRAWN_METRIC} in {@code registry}.
	 */
	public static Optional<HoldPadding> of(HoldProperties properties, MeterRegistry registry) {
		Timer drawn = ConnectionHold.registerDrawn(registry);
		return properties.hold().map((hold) -> {
			Optional<HoldHistogram> histogram = properties.histogramOfHolds();
			String uses = (properties.uses() != 1) ? ", %s connection uses per request".formatted(properties.uses())
					: "";
			logger.info("Emulating a connection hold of {} (lab.hold.*), spent in the {}, seed {}{}",
					histogram
						.map((measured) -> hold.describe() + " drawn from a measured histogram of "
								+ measured.written().split(",").length + " buckets")
						.orElse(hold.describe()),
					properties.place().value(), properties.seed(), uses);
			return new HoldPadding(
					histogram.map((measured) -> measured.sampler(properties.seed()))
						.orElseGet(() -> hold.sampler(properties.seed())),
					properties.place(), properties.seed(), properties.uses(), drawn);
		});
	}

	/**
	 * How many more connection uses the request now holding its first takes, each in a
	 * transaction of its own: the whole part of {@code lab.hold.uses} beyond one, and one
	 * more as often as its fraction says.
	 */
	public int extraUsesDrawn() {
		if (this.extraUses <= 0) {
			return 0;
		}
		double whole = Math.floor(this.extraUses);
		double fraction = this.extraUses - whole;
		boolean more = fraction > 0 && this.usesDrawn.getAsDouble() < fraction;
		return (int) whole + (more ? 1 : 0);
	}

	public HoldPlace place() {
		return this.place;
	}

	/** Draws a request's hold, nanoseconds from checkout to return. */
	public long drawNanos() {
		long nanos = Math.round(this.holdsMs.getAsDouble() * 1e6);
		this.drawn.record(nanos, TimeUnit.NANOSECONDS);
		return nanos;
	}

	/**
	 * How long to wait on towards {@code targetNanos}, the connection held
	 * {@code heldNanos} so far; no wait when zero or less.
	 */
	public long waitNanos(long targetNanos, long heldNanos) {
		return targetNanos - heldNanos - this.excessNanos.get();
	}

	/**
	 * The part of a wait of {@code waitNanos} the database's sleep statement is asked
	 * for: whole milliseconds that end at least {@link #SLEEP_MARGIN_NANOS} before the
	 * wait does, 0 below that and a millisecond; the request's thread waits out the rest
	 * to the microsecond. {@code pg_sleep} rounds each wait up to whole milliseconds
	 * ({@code src/backend/utils/adt/misc.c}, PostgreSQL Global Development Group,
	 * https://github.com/postgres/postgres/blob/REL_17_STABLE/src/backend/utils/adt/misc.c),
	 * so a sub-millisecond hold spent in it would last a millisecond or two.
	 */
	public static long databaseSleepNanos(long waitNanos) {
		return Math.max(0, (waitNanos - SLEEP_MARGIN_NANOS) / NANOS_PER_MS) * NANOS_PER_MS;
	}

	/**
	 * A hold drawn as {@code targetNanos} ended, {@code heldNanos} from checkout to
	 * return, padded or not.
	 */
	public void held(long targetNanos, long heldNanos) {
		long error = clamp(heldNanos - targetNanos);
		this.excessNanos.updateAndGet((excess) -> clamp(excess + (error >> GAIN_SHIFT)));
	}

	private static long clamp(long nanos) {
		return Math.max(-MAX_CORRECTION_NANOS, Math.min(MAX_CORRECTION_NANOS, nanos));
	}

	/** A wait as the sleep statements take it: seconds, to the microsecond. */
	public static BigDecimal seconds(long nanos) {
		return BigDecimal.valueOf(nanos / 1000, 6);
	}

}
