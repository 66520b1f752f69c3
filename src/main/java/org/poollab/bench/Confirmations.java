package org.poollab.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import org.poollab.bench.deciding.Confirming;
import org.poollab.bench.deciding.Answers;
import org.poollab.bench.deciding.Decisions;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.load.ConfirmationRun;
import org.poollab.bench.load.TeamTime;
import org.poollab.bench.report.Report;
import org.poollab.bench.results.Confirmation;
import org.poollab.bench.results.SweepResults;

/**
 * After the grid, each topology whose grid chose a pool size is started again with
 * exactly the recommended block and loaded at the rate it was chosen at
 * ({@link ConfirmationRun}). A refuted pool moves the answer to the next one, which is
 * confirmed in turn, up to {@link Decisions#MAX_CONFIRMATIONS} runs per topology. A
 * topology swept at several Tomcat thread counts is confirmed at its first.
 */
final class Confirmations {

	private Confirmations() {
	}

	/**
	 * Confirms the deployments of {@code planned}, on the sweep's current database.
	 * @return the results' confirmations so far followed by these
	 */
	static List<Confirmation> run(SweepContext sweep, List<Planned> planned) throws IOException, InterruptedException {
		SweepResults results = sweep.results();
		if (sweep.properties().deciding().confirmation().isZero() || results.points().isEmpty()) {
			return results.confirmations();
		}
		ConfirmationRun confirmation = new ConfirmationRun(sweep.grid(), sweep.properties().deciding().confirmation(),
				sweep.jmeter(), sweep.out());
		Deployer deployer = new Deployer(sweep);
		// Earlier databases' confirmations stay: each deployment is confirmed once.
		List<Confirmation> confirmations = new ArrayList<>(results.confirmations());
		List<String> deployments = Decisions.toConfirm(results)
			.stream()
			.map(Decisions.Choice::deployment)
			.distinct()
			.toList();
		for (String deployment : deployments) {
			Optional<Planned> like = planned.stream()
				.filter((point) -> point.pooled() && point.deploymentLabel().equals(deployment))
				.findFirst();
			if (like.isEmpty()) {
				continue;
			}
			for (int run = 0; run < Decisions.MAX_CONFIRMATIONS; run++) {
				// The rule runs once per round: the choice and its block come from the
				// same
				// answers.
				Answers sofar = Answers.of(results.withConfirmations(confirmations));
				Optional<Decisions.Choice> next = sofar.toConfirm(deployment);
				if (next.isEmpty()) {
					break; // nothing to confirm
				}
				// The block's pool, which may be the floor above the answer.
				Confirming block = Report.block(sofar, sweep.store().directory(), next.get());
				if (confirmations.stream()
					.anyMatch(
							(done) -> done.topology().equals(deployment) && done.point().poolSize() == block.poolSize()
									&& done.point().rateRps() == block.rateRps())) {
					break; // its block was confirmed already
				}
				Planned point = new Planned(like.get().topology(), like.get().instances(), like.get().vendor(),
						like.get().stack(), like.get().threads(), block.poolSize(), block.rateRps(), 1);
				Confirmation confirmed = confirmation.run(block, point, scaleOf(results, deployment),
						(deployed, file, rates, most, scale) -> deployer.deploy(deployed, block.poolSize(),
								Optional.of(file), rates, most, scale),
						sweep.store().directory(), sweep.processes(), results.p99ObjectiveMs());
				sweep.emptyWrittenTable();
				confirmations.add(confirmed);
				sweep.out()
					.println("  " + Decisions.confirmationLine(results.withConfirmations(confirmations), deployment));
			}
		}
		return confirmations;
	}

	/**
	 * The time scale a deployment's grid points ran at, read from them (the largest k,
	 * should points differ), with its overhead: the confirmation runs as the grid did.
	 */
	static TimeScale scaleOf(SweepResults results, String deployment) {
		return results.points()
			.stream()
			.filter((point) -> point.deployment().equals(deployment))
			.map(TeamTime::scaleOf)
			.max(Comparator.comparingInt(TimeScale::factor))
			.orElse(TimeScale.NONE);
	}

}
