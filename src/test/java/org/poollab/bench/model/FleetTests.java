package org.poollab.bench.model;

import org.junit.jupiter.api.Test;

import org.poollab.bench.model.Fleet.Surge;

import static org.assertj.core.api.Assertions.assertThat;

class FleetTests {

	@Test
	void theIssuesWorkedExample() {
		// 300 connections, 3 reserved, 5 held by others: 292 for the pools. Pool 10 and a
		// 25 % surge: 23 replicas run 23 + 6 = 29 pools (290 connections); 24 would run
		// 30 (300).
		Fleet fleet = new Fleet(300, 3, 5, Surge.percent(25));
		assertThat(fleet.budget()).isEqualTo(292);
		assertThat(fleet.maxReplicas(10)).isEqualTo(23);
		assertThat(Math.floor(292 / (10 * 1.25))).isEqualTo(23);
	}

	@Test
	void surgeRoundsUpAsKubernetes() {
		assertThat(Surge.percent(25).extra(1)).isEqualTo(1);
		assertThat(Surge.percent(25).extra(4)).isEqualTo(1);
		assertThat(Surge.percent(25).extra(5)).isEqualTo(2);
		assertThat(Surge.percent(0).extra(7)).isZero();
		assertThat(Surge.replicas(2).extra(40)).isEqualTo(2);
	}

	@Test
	void budgetShareCountsTheSurge() {
		Fleet fleet = new Fleet(100, 3, 5, Surge.percent(25));
		// 3 replicas and 1 surging: 92 / 4 = 23 each.
		assertThat(fleet.budgetShare(3)).isEqualTo(23);
		assertThat(fleet.maxReplicas(23)).isEqualTo(3);
		assertThat(fleet.maxReplicas(24)).isEqualTo(2);
		assertThat(new Fleet(10, 3, 5, Surge.percent(25)).budgetShare(3)).isZero();
	}

	@Test
	void noReplicaFitsWhenOnePoolAndItsSurgeExceedTheBudget() {
		assertThat(new Fleet(20, 3, 5, Surge.percent(25)).maxReplicas(7)).isZero();
		assertThat(new Fleet(20, 3, 5, Surge.percent(25)).maxReplicas(6)).isEqualTo(1);
	}

	@Test
	void deadlockFloorIsHikariCPs() {
		// "About Pool Sizing": 8 threads taking 3 connections each need 8 x 2 + 1 = 17.
		assertThat(Fleet.deadlockFloor(8, 3)).isEqualTo(17);
		assertThat(Fleet.deadlockFloor(200, 1)).isEqualTo(1);
	}

	@Test
	void ratePerReplicaWithOneDown() {
		assertThat(Fleet.ratePerReplica(1500, 3)).isEqualTo(750);
		assertThat(Fleet.ratePerReplica(1500, 1)).isEqualTo(1500);
	}

}
