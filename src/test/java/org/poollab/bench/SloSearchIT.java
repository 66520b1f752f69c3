package org.poollab.bench;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.deciding.SloJudge;
import org.poollab.bench.model.Fleet;
import org.poollab.bench.model.Usl;
import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.SloSearch;
import org.poollab.bench.results.SweepResults;
import org.poollab.vendor.EmbeddedPostgresServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A small SLO search through the real parts: the database's scaling measured over JDBC,
 * one instance searched from the budget's largest pool down, the answer confirmed as
 * pasted, the report written, nothing left running. What it asserts is the search's
 * logic, never a speed, so its windows are as short as the lab takes: one second each,
 * and a database budget of 15 connections, which leaves the database's scaling four
 * concurrencies to measure instead of seven and the search five pool sizes.
 */
class SloSearchIT {

	@TempDir
	Path output;

	/**
	 * Other clients' connections that leave the pools a budget of 15 on the lab's
	 * PostgreSQL (its max_connections less the 3 reserved for superusers).
	 */
	private static final int OTHER_CONNECTIONS = EmbeddedPostgresServer.MAX_CONNECTIONS - 3 - 15;

	@Test
	void searchWalksDownFromTheBudgetsLargestPoolAndConfirmsItsAnswer() throws Exception {
		Sweep.Outcome outcome = BenchApplication.run("--bench.targetRps=100", "--bench.replicas=2",
				"--bench.maxReplicas=3", "--bench.p99Objective=500ms", "--bench.otherConnections=" + OTHER_CONNECTIONS,
				"--bench.duration=1s", "--bench.warmup=1s", "--bench.topologyWarmup=3s", "--bench.confirmation=1s",
				"--bench.outputDirectory=" + this.output, "--bench.basePort=" + SweepEndToEndIT.freeBasePort(1));

		SweepResults results = outcome.results();
		SloSearch search = results.slo();
		assertThat(search).isNotNull();
		assertThat(results.points()).as("a search has no grid").isEmpty();
		// Two replicas, one down: one instance carries the whole 100 rps. At 100 rps the
		// lab skips the load generator's ceiling run (GeneratorCeiling.worthMeasuring),
		// which GeneratorBoundSweepIT covers; at 200 it cost this test a 500 rps JMeter
		// run, and JMeter fell behind in several windows beside two other test JVMs.
		assertThat(search.rateRps()).isEqualTo(100);
		Fleet fleet = new Fleet(results.database().maxConnections(), results.database().reservedConnections(),
				OTHER_CONNECTIONS, Fleet.Surge.percent(25));
		assertThat(fleet.budget()).as("the pools' budget on the database").isEqualTo(15);
		assertThat(search.highestPool()).isEqualTo(Math.min(100, fleet.budgetShare(2)));
		assertThat(search.path().get(0).poolSize()).as("the search starts at the largest pool")
			.isEqualTo(search.highestPool());
		for (SloSearch.Probe probe : search.path()) {
			// A refuted answer joins the path with its confirmation's one window.
			boolean refutation = probe.verdict().startsWith(SloJudge.REFUTED);
			assertThat(probe.repeats()).as("pool %d's windows", probe.poolSize())
				.hasSize(refutation ? 1 : 2)
				.allSatisfy((window) -> assertThat(window.pool().observedMax()).containsOnly(probe.poolSize()));
		}
		if (search.chosenPool() != null) {
			int chosen = search.chosenPool();
			assertThat(search.path()).as("the answer met the objective in the search")
				.anySatisfy((probe) -> assertThat(probe.poolSize() == chosen && probe.meets()).isTrue());
			if (search.exact()) {
				// A smaller pool that met the objective in the search and was then
				// refuted by its confirmation as pasted is no answer either.
				assertThat(search.path().stream().filter((probe) -> probe.poolSize() < chosen))
					.as("every smaller pool measured failed or was refuted")
					.allSatisfy((probe) -> assertThat(!probe.meets() || search.path()
						.stream()
						.anyMatch((later) -> later.poolSize() == probe.poolSize()
								&& later.verdict().startsWith(SloJudge.REFUTED)))
						.as("pool %d: %s", probe.poolSize(), probe.verdict())
						.isTrue());
			}
			assertThat(results.confirmations()).as("the answer was started as pasted").isNotEmpty();
			assertThat(results.confirmations().get(0).mismatches()).isEmpty();
		}
		assertThat(search.model()).isNotNull();
		assertThat(search.model().queue().arrivalsPerSecond()).isEqualTo(100);
		assertThat(search.scaling()).isNotNull();
		// The concurrencies up to the budget; those above it are skipped.
		assertThat(search.scaling().samples()).extracting(Usl.Sample::connections).containsExactly(1, 2, 4, 8);
		assertThat(search.scaling().samples()).allSatisfy((sample) -> assertThat(sample.perSecond()).isPositive());

		SweepResults read = ResultsStore.read(outcome.directory().resolve(ResultsStore.RESULTS_JSON));
		assertThat(read.slo()).isEqualTo(search);
		String yaml = Files.readString(outcome.directory().resolve("recommended-application.yml"));
		assertThat(yaml).contains("# Question: 100 rps at the peak over 2 replica(s)");
		assertThat(outcome.directory().resolve("report.html")).content().contains("id=\"model-curve\"");
		assertThat(outcome.processIds()).as("processes the search started").isNotEmpty();
		for (long pid : outcome.processIds()) {
			assertThat(LabProcesses.alive(pid)).as("process %d alive", pid).isFalse();
		}
		assertThat(outcome.recommendations()).as("no grid recommendation beside the search's answer").isEmpty();
	}

}
