package org.poollab.bench.deciding;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.poollab.bench.deciding.Decisions.Choice;
import org.poollab.bench.results.Confirmation.ChosenAt;
import org.poollab.bench.results.SweepResults;

/**
 * The rule applied once to every topology of a run: each grid's recommendation (answer,
 * runners-up, reasons) and the pool size to write for it. The report and the
 * confirmations read this object and never apply the rule again, so its redrawn decisions
 * run once per set of results.
 *
 * @param results what was measured, with the confirmations so far
 * @param grids each topology's grid, in the order the topologies ran
 * @param recommendations each grid's recommendation, in the same order
 * @param written each grid's pool size to write, in the same order
 */
public record Answers(SweepResults results, List<TopologyGrid> grids, List<Recommendation> recommendations,
		List<WrittenPool> written) {

	/** The rule applied to every topology of the results. */
	public static Answers of(SweepResults results) {
		List<TopologyGrid> grids = TopologyGrid.of(results);
		List<Recommendation> recommendations = grids.stream()
			.map((grid) -> Decisions.recommend(results, grid))
			.toList();
		List<WrittenPool> written = new ArrayList<>();
		for (int i = 0; i < grids.size(); i++) {
			written.add(WrittenPool.of(recommendations.get(i), grids.get(i)));
		}
		return new Answers(results, grids, recommendations, List.copyOf(written));
	}

	/**
	 * The choices worth confirming: one per topology whose measurements chose a HikariCP
	 * pool size at some rate (not behind pgbouncer, whose answer is pgbouncer's pool).
	 * @return the choices, in the order the topologies ran
	 */
	public List<Choice> toConfirm() {
		List<Choice> choices = new ArrayList<>();
		for (int i = 0; i < this.grids.size(); i++) {
			TopologyGrid grid = this.grids.get(i);
			Recommendation recommendation = this.recommendations.get(i);
			if (!grid.behindPgBouncer() && recommendation.verdict().conclusive()
					&& recommendation.poolSize().isPresent() && recommendation.decidingRateRps().isPresent()) {
				choices.add(new Choice(grid.key(), recommendation.poolSize().getAsInt(),
						recommendation.decidingRateRps().getAsInt()));
			}
		}
		return choices;
	}

	/** The next choice to confirm for a deployment, if any. */
	public Optional<Choice> toConfirm(String deployment) {
		return toConfirm().stream().filter((choice) -> choice.deployment().equals(deployment)).findFirst();
	}

	/**
	 * The grid's cell a choice was made from, for its confirmation to be compared with:
	 * the chosen pool at the deciding rate (a block whose pool is the floor above it is
	 * compared with it too, which a larger pool can only improve on).
	 * @return empty when the grid has no such cell
	 */
	public Optional<ChosenAt> chosenAt(Choice choice) {
		return this.grids.stream()
			.filter((grid) -> grid.key().equals(choice.deployment()))
			.findFirst()
			.flatMap((grid) -> grid.cell(choice.poolSize(), choice.rateRps()))
			.flatMap((cell) -> Confirmed.chosenAt(ChosenAt.GRID, cell.points(), this.results.p99ObjectiveMs()));
	}

}
