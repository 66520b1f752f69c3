package org.poollab.bench.deciding;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.poollab.bench.text.Durations;

/**
 * Both sides of the knee at the deciding rate. The pools around the best are the best,
 * the pools indistinguishable from it and the choice; smaller than all of them is too
 * small, larger than all of them too large. Each of those failed the rate or is
 * measurably slower than the best: the indistinguishable ones are around it. The curve is
 * U-shaped when the large side is there too (past the knee a larger pool lets more
 * statements run on the database at once and each runs longer), and the report then names
 * both sides with their figures. A sustained cell whose latency is understated is on
 * neither side: its p99 does not vote.
 * <p>
 * "Too large" is the claim against the folklore that a bigger pool never hurts, so the
 * repeats must agree: a larger pool is too large when it failed the rate in every repeat,
 * or when its p99 is measurably slower than the best's by the decision's own test, whose
 * error counts the scatter between repeats. A larger pool that failed by its medians but
 * held in some repeat, and is not measurably slower, is {@code notShown}: with two
 * repeats the median is their mean, and one tail-heavy window of 6 s moved it past the
 * objective in one quiet run and not in the next (the {@code contention} preset's
 * two-repeat runs, src/site/markdown/measurements-archive.md). With one repeat nothing
 * changes: the repeat is the cell. The small side needs no such rule, since a pool that
 * failed any repeat is never the choice: erring there costs a connection, not a wrong
 * claim.
 *
 * @param tooSmall the pools smaller than every pool around the best, smallest first
 * @param tooLarge the pools larger than every pool around the best, shown worse than it
 * ({@link #shownWorse}), smallest first
 * @param notShown the pools larger than every pool around the best that failed by their
 * medians but are not shown worse, smallest first
 */
public record Knee(List<Cell> tooSmall, List<Cell> tooLarge, List<Cell> notShown) {

	/**
	 * The sides of the knee around the given pools.
	 * @param atRate every considered cell at the deciding rate
	 * @param around the pool sizes around the best: the best, those indistinguishable
	 * from it, and the choice
	 */
	public static Knee of(List<Cell> atRate, Collection<Integer> around) {
		int smallest = around.stream().mapToInt(Integer::intValue).min().orElseThrow();
		int largest = around.stream().mapToInt(Integer::intValue).max().orElseThrow();
		List<Cell> sides = atRate.stream()
			.filter(Cell::pooled)
			.filter((cell) -> !(cell.sustained() && cell.understated()))
			.sorted(Comparator.comparingInt(Cell::poolSize))
			.toList();
		// What the large side is worse than: the fastest of the pools around the best
		// that sustained the rate (with intervals, the best itself).
		Optional<Cell> best = atRate.stream()
			.filter((cell) -> around.contains(cell.poolSize()) && cell.pooled() && cell.sustained())
			.min(Comparator.comparingDouble((cell) -> cell.latency().p99Ms()));
		List<Cell> larger = sides.stream().filter((cell) -> cell.poolSize() > largest).toList();
		return new Knee(sides.stream().filter((cell) -> cell.poolSize() < smallest).toList(),
				larger.stream().filter((cell) -> !notShown(cell, best)).toList(),
				larger.stream().filter((cell) -> notShown(cell, best)).toList());
	}

	/**
	 * A larger pool that failed by its medians but is not shown worse than the best. A
	 * larger pool that sustained the rate is on the large side only for being measurably
	 * slower, which the decision has already found.
	 */
	private static boolean notShown(Cell cell, Optional<Cell> best) {
		return !cell.sustained() && best.isPresent() && !shownWorse(cell, best.get());
	}

	/**
	 * Whether the cell is shown worse than {@code than}: it failed the rate in every
	 * repeat, or its p99 is measurably slower ({@link #measurablySlower}).
	 */
	public static boolean shownWorse(Cell cell, Cell than) {
		return Repeats.failed(cell).size() == cell.points().size() || measurablySlower(cell, than);
	}

	/**
	 * The sides in a sentence, e.g. "Either side of the knee, too small: 1 (failed: …);
	 * too large: 8 (failed: …) and 32 (slower: p99 60 [53–68] ms)."; empty when no pool
	 * is too large, since the small side alone is the ordinary curve, which the summary
	 * already describes.
	 */
	public Optional<String> sentence() {
		if (this.tooLarge.isEmpty()) {
			return notShownSentence();
		}
		String large = "too large: " + list(this.tooLarge);
		return Optional.of((this.tooSmall.isEmpty() ? "Past the knee, " + large + "."
				: "Either side of the knee, too small: " + list(this.tooSmall) + "; " + large + ".")
				+ notShownSentence().map((sentence) -> " " + sentence).orElse(""));
	}

	/**
	 * E.g. "Not shown too large: 64 failed 1 of 2 repeats (p99 70 and 135 ms) and is not
	 * measurably slower."; empty when every larger pool that failed is shown worse.
	 */
	private Optional<String> notShownSentence() {
		if (this.notShown.isEmpty()) {
			return Optional.empty();
		}
		return Optional
			.of("Not shown too large: " + String.join(", ", this.notShown.stream().map(Knee::partly).toList()) + ".");
	}

	/**
	 * E.g. "64 failed 1 of 2 repeats (p99 70 and 135 ms) and is not measurably slower".
	 */
	public static String partly(Cell cell) {
		List<String> p99s = cell.points().stream().map((point) -> Durations.ms(point.latency().p99Ms())).toList();
		return cell.poolLabel() + " failed " + Repeats.failed(cell).size() + " of " + cell.points().size()
				+ " repeats (p99 " + String.join(" and ", p99s) + " ms) and is not measurably slower";
	}

	/** Whether the sentence names the cell. */
	public boolean names(Cell cell) {
		return this.notShown.contains(cell)
				|| (!this.tooLarge.isEmpty() && (this.tooSmall.contains(cell) || this.tooLarge.contains(cell)));
	}

	/** E.g. {@code 8 (failed: p99 104 ms above the 100 ms objective) and 32 (...)}. */
	public static String list(List<Cell> cells) {
		List<String> named = cells.stream().map((cell) -> cell.poolLabel() + " (" + figure(cell) + ")").toList();
		return (named.size() == 1) ? named.get(0)
				: String.join(", ", named.subList(0, named.size() - 1)) + " and " + named.get(named.size() - 1);
	}

	/**
	 * A side's cell in a few words: how it failed, or its p99 with its interval when it
	 * held but is slower than the best.
	 */
	public static String figure(Cell cell) {
		return cell.sustained()
				? "slower: p99 " + Durations.ms(cell.latency().p99Ms())
						+ cell.latency().p99Interval().map(CellText::interval).orElse("") + " ms"
				: "failed: " + CellText.shortfall(cell);
	}

	/**
	 * The lowest rate above the deciding one at which the answer's pool held the
	 * objective while larger pools failed it or were measurably slower, with their
	 * figures: the far side of the knee where the deciding rate did not show it (e.g. "at
	 * 400 rps, where pool 2 held (p99 64 ms): 16 (failed: …) and 64 (failed: …)"). Empty
	 * when no higher rate shows it.
	 */
	public static Optional<String> above(TopologyGrid grid, int pool, int decidingRateRps) {
		for (int rate : grid.ratesRps()) {
			if (rate <= decidingRateRps) {
				continue;
			}
			Optional<Cell> chosen = grid.cell(pool, rate).filter(Cell::considered).filter(Cell::sustained);
			if (chosen.isEmpty()) {
				return Optional.empty(); // the answer's pool did not hold it: nothing to
											// hold against
			}
			Cell held = chosen.get();
			List<Cell> worse = grid.cells()
				.stream()
				.filter((cell) -> cell.rateRps() == rate && cell.pooled() && cell.considered()
						&& cell.poolSize() > pool)
				.filter((cell) -> shownWorse(cell, held))
				.sorted(Comparator.comparingInt(Cell::poolSize))
				.toList();
			if (!worse.isEmpty()) {
				return Optional.of(String.format(Locale.ROOT, "at %d rps, where pool %s held (p99 %s%s ms), worse: %s",
						rate, held.poolLabel(), Durations.ms(held.latency().p99Ms()),
						held.latency().p99Interval().map(CellText::interval).orElse(""), Knee.list(worse)));
			}
		}
		return Optional.empty();
	}

	/**
	 * Slower than {@code than} by more than their 95 % intervals allow, with the
	 * decision's test ({@link Decision#measurablySlower}), whether or not the cell
	 * sustained its rate; never when its latency is understated or a cell has no
	 * interval.
	 */
	private static boolean measurablySlower(Cell cell, Cell than) {
		return !cell.understated() && Decision.measurablySlower(cell, than);
	}

}
