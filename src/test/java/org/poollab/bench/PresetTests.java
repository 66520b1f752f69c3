package org.poollab.bench;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import org.poollab.bench.grid.Arrivals;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Preset;
import org.poollab.bench.grid.Topology;
import org.poollab.bench.grid.Workload;
import org.poollab.bench.model.QueueModel;
import org.poollab.bench.results.EmulatedHold;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.RequestThreads;
import org.poollab.bench.results.Stack;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.settings.BenchBinder;
import org.poollab.bench.settings.BenchProperties;
import org.poollab.bench.settings.GridSettings;
import org.poollab.vendor.DatabaseVendor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each preset is the grid of the source text it reproduces
 * (src/site/markdown/presets.md), and an explicit setting replaces one value of a preset,
 * not the whole preset.
 */
class PresetTests {

	@Test
	void presetSettingAcceptsExactlyThePresetsNamesInAnyCase() {
		for (Preset preset : Preset.ALL) {
			assertThat(preset.name()).matches(Preset.NAMES_PATTERN);
			assertThat(preset.name().toUpperCase(Locale.ROOT)).matches(Preset.NAMES_PATTERN);
		}
		assertThat(Preset.NAMES_PATTERN.replace("(?i)", "").split("\\|"))
			.containsExactlyInAnyOrderElementsOf(Preset.ALL.stream().map(Preset::name).toList());
	}

	@Test
	void paperIsTheJoivPapersGridWithItsInstanceLimits() {
		Grid grid = grid(Map.of("bench.preset", "paper"));
		assertThat(grid.topologies()).containsExactly(Topology.SINGLE, Topology.MULTI);
		assertThat(grid.instancesOf(Topology.MULTI)).isEqualTo(3);
		assertThat(grid.poolSizes()).containsExactly(1, 5, 10);
		assertThat(grid.rates()).containsExactly(500, 1000, 2000);
		assertThat(grid.duration()).isEqualTo(Duration.ofSeconds(5));
		assertThat(grid.limits(RequestThreads.TOMCAT_DEFAULT))
			.isEqualTo(new Limits(1, "128m", RequestThreads.TOMCAT_DEFAULT));
		assertThat(grid.workload()).isEqualTo(Workload.READ);
		assertThat(grid.points()).hasSize(2 * 3 * 3);
	}

	@Test
	void blogIsOneInstanceWithTomcatsTwoHundredThreadsAndTheBlogsPoolSizes() {
		Grid grid = grid(Map.of("bench.preset", "blog"));
		assertThat(grid.topologies()).containsExactly(Topology.SINGLE);
		assertThat(grid.poolSizes()).containsExactly(5, 10, 12, 16, 32, 200);
		assertThat(grid.threads()).containsExactly(RequestThreads.platform(200));
		assertThat(grid.points()).extracting(Grid.Planned::threads).containsOnly(RequestThreads.platform(200));
	}

	@Test
	void threadsSweepsPlatformThenVirtualThreadsEachOnItsOwnDeployment() {
		Grid grid = grid(Map.of("bench.preset", "threads"));
		assertThat(grid.threads()).containsExactly(RequestThreads.TOMCAT_DEFAULT, RequestThreads.VIRTUAL);
		assertThat(grid.virtualThreads()).isTrue();
		assertThat(grid.points()).hasSize(2 * grid.poolSizes().size() * grid.rates().size());
		assertThat(grid.points()).extracting(Grid.Planned::deploymentLabel).containsOnly("single", "single-virtual");
	}

	@Test
	void tomcatThreadCountsAreSweptForPlatformThreadsOnlyBesideVirtualThreads() {
		Grid grid = grid(
				Map.of("bench.preset", "quick", "bench.threads", "virtual,platform", "bench.tomcatThreads", "50,200"));
		assertThat(grid.threads()).containsExactly(RequestThreads.VIRTUAL, RequestThreads.platform(50),
				RequestThreads.platform(200));
		assertThat(grid.limits(RequestThreads.VIRTUAL).describe()).isEqualTo("all CPUs, heap 512m, virtual threads");
		assertThat(RequestThreads.VIRTUAL.cap()).isEmpty();
		assertThat(RequestThreads.platform(50).cap()).hasValue(50);
		assertThat(RequestThreads.TOMCAT_DEFAULT.cap()).hasValue(200);
	}

	@Test
	void withoutBenchThreadsOnlyPlatformThreadsRun() {
		Grid grid = grid(Map.of());
		assertThat(grid.threads()).containsExactly(RequestThreads.TOMCAT_DEFAULT);
		assertThat(grid.virtualThreads()).isFalse();
	}

	@Test
	void poolingComparesNoPoolWithPoolsOnTheWriteWorkloadAndMeasuresTheAcquireCost() {
		Grid grid = grid(Map.of("bench.preset", "pooling"));
		assertThat(grid.poolSizes()).containsExactly(SweepResults.NO_POOL, 5, 10);
		assertThat(grid.topologies()).containsExactly(Topology.SINGLE, Topology.PGBOUNCER);
		assertThat(grid.workload()).isEqualTo(Workload.WRITE);
		assertThat(grid.acquireCost()).isTrue();
		// pgbouncer always pools: its points are pgbouncer's pool sizes, never none.
		assertThat(grid.points()).filteredOn((point) -> point.topology() == Topology.PGBOUNCER)
			.extracting(Grid.Planned::poolSize)
			.doesNotContain(SweepResults.NO_POOL);
	}

	@Test
	void reactiveSweepsTheJdbcServiceThenItsReactiveTwinWithAndWithoutAPool() {
		Grid grid = grid(Map.of("bench.preset", "reactive"));
		assertThat(grid.stacks()).containsExactly(Stack.JDBC, Stack.R2DBC);
		assertThat(grid.poolSizes()).containsExactly(SweepResults.NO_POOL, 10, 100, 200);
		assertThat(grid.workload()).isEqualTo(Workload.WRITE);
		assertThat(grid.points()).hasSize(2 * grid.poolSizes().size() * grid.rates().size());
		assertThat(grid.points()).extracting(Grid.Planned::deploymentLabel).containsOnly("single", "single-r2dbc");
		assertThat(grid.limits(Stack.R2DBC, RequestThreads.TOMCAT_DEFAULT).describe())
			.isEqualTo("R2DBC (WebFlux, r2dbc-pool), all CPUs, heap 512m");
		// The event loop is the twin's only request thread: nothing but the pool caps it.
		assertThat(grid.limits(Stack.R2DBC, RequestThreads.TOMCAT_DEFAULT).requestCap()).isEmpty();
		assertThat(grid.limits(Stack.JDBC, RequestThreads.TOMCAT_DEFAULT).requestCap()).hasValue(200);
	}

	@Test
	void threadModelsSizeTheJdbcServiceOnlyBesideTheReactiveTwin() {
		Grid grid = grid(
				Map.of("bench.preset", "quick", "bench.stack", "jdbc,r2dbc", "bench.threads", "platform,virtual"));
		assertThat(grid.points()).extracting(Grid.Planned::deploymentLabel)
			.containsOnly("single", "single-virtual", "single-r2dbc", "multi", "multi-virtual", "multi-r2dbc");
	}

	@Test
	void mysqlSweepsOneInstanceOnPostgreSqlThenOnMariaDb() {
		Grid grid = grid(Map.of("bench.preset", "mysql"));
		assertThat(grid.topologies()).containsExactly(Topology.SINGLE);
		assertThat(grid.vendors()).containsExactly(DatabaseVendor.POSTGRESQL, DatabaseVendor.MARIADB);
		assertThat(grid.workload()).isEqualTo(Workload.READ);
		assertThat(grid.poolSizes()).containsExactly(1, 2, 5, 10, 20);
		assertThat(grid.rates()).containsExactly(250, 500);
		assertThat(grid.arrivals()).isEqualTo(Arrivals.RANDOM);
		assertThat(grid.duration()).isEqualTo(Duration.ofSeconds(6));
		assertThat(grid.topologyWarmup()).isEqualTo(Duration.ofSeconds(30));
		assertThat(grid.stacks()).containsExactly(Stack.JDBC);
		// Every PostgreSQL point before any MariaDB one: each server is started once.
		assertThat(grid.points()).extracting(Grid.Planned::deploymentLabel)
			.containsSequence(Collections.nCopies(10, "single"))
			.endsWith("single-mariadb")
			.hasSize(2 * 5 * 2);
		assertThat(grid.points().subList(10, 20)).extracting(Grid.Planned::vendor).containsOnly(DatabaseVendor.MARIADB);
	}

	@Test
	void databaseVendorsAreADimensionOutsideTopologiesStacksAndThreads() {
		Grid grid = grid(Map.of("bench.preset", "quick", "bench.database.vendor", "postgresql,mariadb,postgresql",
				"bench.threads", "platform,virtual"));
		assertThat(grid.vendors()).as("duplicates are dropped")
			.containsExactly(DatabaseVendor.POSTGRESQL, DatabaseVendor.MARIADB);
		assertThat(grid.points()).extracting(Grid.Planned::deploymentLabel)
			.containsSubsequence("single", "single-virtual", "multi", "multi-virtual", "single-mariadb",
					"single-mariadb-virtual", "multi-mariadb", "multi-mariadb-virtual");
		assertThat(grid(Map.of("bench.preset", "mysql", "bench.database.vendor", "mariadb")).vendors())
			.as("an explicit vendor replaces the preset's")
			.containsExactly(DatabaseVendor.MARIADB);
		assertThat(grid(Map.of("bench.preset", "mysql", "bench.database.url", "jdbc:postgresql://127.0.0.1:5432/x"))
			.vendors()).as("a URL is one database").containsExactly(DatabaseVendor.POSTGRESQL);
	}

	@Test
	void fullIsTheDefault() {
		Grid grid = grid(Map.of());
		assertThat(grid.preset()).isEqualTo(Preset.FULL);
		assertThat(grid.poolSizes()).containsExactly(1, 2, 5, 10, 50);
		assertThat(grid.rates()).containsExactly(200, 400);
		assertThat(grid.arrivals()).isEqualTo(Arrivals.RANDOM);
		assertThat(grid.hold()).isEqualTo(new EmulatedHold(15, null, "database", "bench.preset=full"));
		assertThat(grid.limits(RequestThreads.TOMCAT_DEFAULT)).isEqualTo(Limits.DEFAULTS.withHold(grid.hold()));
	}

	/**
	 * Every request costs the database 2 ms of CPU and waits for nothing else; pools run
	 * from 1 to far above this box's 2 cores.
	 */
	@Test
	void contentionCostsEachRequestDatabaseCpuFromSmallPoolsToFarAboveTheCores() {
		Grid grid = grid(Map.of("bench.preset", "contention"));
		assertThat(grid.poolSizes()).containsExactly(1, 2, 4, 64);
		assertThat(grid.topologies()).containsExactly(Topology.SINGLE, Topology.MULTI);
		assertThat(grid.repeats()).isEqualTo(2);
		assertThat(grid(Map.of("bench.preset", "contention", "bench.repeats", "1")).repeats()).isEqualTo(1);
		assertThat(grid(Map.of("bench.preset", "quick")).repeats()).isEqualTo(1);
		assertThat(grid.hold()).isEqualTo(EmulatedHold.cpu(5, "bench.preset=contention"));
		assertThat(grid.hold().describe()).isEqualTo("5ms of database CPU");
		assertThat(grid(Map.of("bench.holdCpu", "3ms", "bench.holdTime", "10ms")).hold())
			.isEqualTo(new EmulatedHold(10, null, "database", "bench.holdTime, bench.holdCpu", 3.0));
	}

	/**
	 * The default asks a question with an answer: at its highest rate the queueing model
	 * (Erlang C, the preset's hold, Poisson arrivals dealt round robin) puts at least two
	 * of its pool sizes on each side of the knee, for one instance and for three; the
	 * pools just below each knee are past saturation (utilisation at or above 1), not
	 * merely slower.
	 */
	@Test
	void fullPutsTheKneeInsideItsGridForBothTopologies() {
		Preset full = Preset.FULL;
		int rate = full.rates().stream().max(Integer::compare).orElseThrow();
		for (int instances : List.of(1, Preset.INSTANCES)) {
			QueueModel model = new QueueModel((double) rate / instances, full.hold().meanMs(), full.hold().cv2(),
					1.0 / instances, full.hold().meanMs());
			List<Integer> unstable = full.poolSizes().stream().filter((pool) -> !model.predict(pool).stable()).toList();
			List<Integer> within = full.poolSizes()
				.stream()
				.filter((pool) -> model.predict(pool).latencyP99Ms() < 100 && model.predict(pool).utilisation() < 0.7)
				.toList();
			assertThat(unstable).as("%d instance(s) at %d rps: pools past saturation", instances, rate)
				.hasSizeGreaterThanOrEqualTo(2);
			assertThat(within).as("%d instance(s) at %d rps: pools well within the objective", instances, rate)
				.hasSizeGreaterThanOrEqualTo(2);
			assertThat(unstable.size() + within.size()).isEqualTo(full.poolSizes().size());
		}
	}

	@Test
	void anExplicitSettingReplacesOneValueOfThePreset() {
		Grid grid = grid(Map.of("bench.preset", "paper", "bench.rates", "250", "bench.instanceHeap", "256m"));
		assertThat(grid.rates()).containsExactly(250);
		assertThat(grid.limits(RequestThreads.TOMCAT_DEFAULT))
			.isEqualTo(new Limits(1, "256m", RequestThreads.TOMCAT_DEFAULT));
		assertThat(grid.poolSizes()).containsExactly(1, 5, 10);
		assertThat(grid.duration()).isEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void pointsRunTopologyByTopologyThenPoolSizeThenRate() {
		Grid grid = grid(Map.of("bench.preset", "quick", "bench.rates", "100,200", "bench.repeats", "2"));
		assertThat(grid.points()).extracting(Grid.Planned::id)
			.startsWith("single-pool1-rate100-rep1", "single-pool1-rate100-rep2", "single-pool1-rate200-rep1")
			.endsWith("multi-pool5-rate200-rep2")
			.hasSize(2 * 2 * 2 * 2);
	}

	@Test
	void theSloSearchMeasuresOneInstanceAtTheRateAReplicaCarriesWithOneDown() {
		Grid grid = grid(Map.of("bench.preset", "quick", "bench.targetRps", "1500", "bench.replicas", "3"));
		assertThat(grid.topologies()).containsExactly(Topology.SINGLE);
		assertThat(grid.instances()).isEqualTo(1);
		assertThat(grid.poolSizes()).containsExactly(1);
		assertThat(grid.rates()).containsExactly(750);
		assertThat(grid.repeats()).isEqualTo(2);
		assertThat(grid.arrivals()).isEqualTo(Arrivals.RANDOM);
		assertThat(grid.stacks()).containsExactly(Stack.JDBC);
		assertThat(grid.threads()).containsExactly(RequestThreads.TOMCAT_DEFAULT);
		assertThat(grid.acquireCost()).isFalse();
		assertThat(grid.duration()).isEqualTo(Preset.named("quick").duration());
		assertThat(grid.vendors()).containsExactly(DatabaseVendor.POSTGRESQL);
	}

	@Test
	void anExternalDeploymentIsSweptAsDeployedWithOneInstancePerActuator() {
		Grid grid = grid(
				Map.of("bench.preset", "quick", "bench.target", "external", "bench.targets", "http://127.0.0.1:8080",
						"bench.actuators", "http://127.0.0.1:8081/actuator,http://127.0.0.1:8082/actuator",
						"bench.poolSizes", "none,4,4", "bench.repeats", "3"));
		assertThat(grid.topologies()).containsExactly(Topology.MULTI);
		assertThat(grid.instances()).isEqualTo(2);
		assertThat(grid.poolSizes()).containsExactly(4);
		assertThat(grid.repeats()).isEqualTo(3);
		assertThat(grid.limits(RequestThreads.TOMCAT_DEFAULT))
			.isEqualTo(new Limits(0, Limits.AS_DEPLOYED, RequestThreads.TOMCAT_DEFAULT));
		assertThat(grid.stacks()).containsExactly(Stack.JDBC);
		assertThat(grid.acquireCost()).isFalse();
		assertThat(grid.hold()).isNull();
		assertThat(grid.rates()).isEqualTo(Preset.named("quick").rates());
	}

	static Grid grid(Map<String, String> settings) {
		Binder binder = new Binder(new MapConfigurationPropertySource(settings));
		BenchProperties properties = BenchBinder.bind(binder);
		return GridSettings.grid(properties);
	}

}
