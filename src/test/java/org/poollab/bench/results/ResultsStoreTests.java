package org.poollab.bench.results;

import java.io.IOException;
import java.io.Reader;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import org.poollab.vendor.DatabaseVendor;

import static org.assertj.core.api.Assertions.assertThat;

/** results.json and its CSV twin, with the figures added on 2026-11-23. */
class ResultsStoreTests {

	@TempDir
	Path output;

	@Test
	void csvHasThroughputLateStartsAndRefusalsByReason() throws Exception {
		SweepResults quick = fixture("quick-results-new-format.json");
		Point first = quick.points().get(0);
		Point refused = first.toBuilder().startLagP99Ms(12.0).refusals(Map.of("too-many-clients", 120L)).build();
		SweepResults results = new SweepResults(quick.startedAt(), quick.preset(), quick.host(), quick.database(),
				quick.p99ObjectiveMs(), quick.workload(), List.of(refused))
			.withTiming(quick.timing());

		CSVRecord row = writeAndReadCsv(results).get(0);

		// 600 successful responses in a 3 s window
		assertThat(row.get("throughputRps")).isEqualTo("200.000");
		assertThat(row.get("startLagP99Ms")).isEqualTo("12.000");
		assertThat(row.get("refused_too_many_clients")).isEqualTo("120");
		assertThat(row.get("refused_pool_timeout")).isEqualTo("0");
		assertThat(row.get("refused_database_unavailable")).isEqualTo("0");
		assertThat(row.get("topology")).isEqualTo("single");
	}

	@Test
	void everyInstancesOwnLatencyRoundTripsAndTheCsvShowsTheSlowestInstance() throws Exception {
		SweepResults quick = fixture("quick-results-new-format.json");
		Point first = quick.points().get(0);
		Point measured = first.toBuilder()
			.serverLatency(List.of(new ServerLatency(8081, 300, 1.398101, 4.194304, 8.388607, 3100),
					new ServerLatency(8082, 290, 1.048576, 5.592405, 11.184809, 3400), ServerLatency.absent(8083)))
			.build();
		SweepResults results = new SweepResults(quick.startedAt(), quick.preset(), quick.host(), quick.database(),
				quick.p99ObjectiveMs(), quick.workload(), List.of(measured))
			.withTiming(quick.timing());

		CSVRecord row = writeAndReadCsv(results).get(0);

		assertThat(row.get("serverP50Ms")).isEqualTo("1.398");
		assertThat(row.get("serverP99Ms")).isEqualTo("5.592");
		SweepResults read = ResultsStore.read(this.output.resolve("latest").resolve(ResultsStore.RESULTS_JSON));
		assertThat(read).isEqualTo(results);
		assertThat(read.points().get(0).serverLatency()).extracting(ServerLatency::port)
			.containsExactly(8081, 8082, 8083);
		assertThat(read.points().get(0).withOutcome("ok").serverLatency()).hasSize(3);
	}

	@Test
	void eachRemoteEnginesLoadRoundTripsAndResultsWithoutItReadAsNoEngines() throws Exception {
		SweepResults quick = fixture("quick-results-new-format.json");
		assertThat(quick.points()).allSatisfy((point) -> assertThat(point.engines()).isEmpty());
		Point distributed = quick.points()
			.get(0)
			.toBuilder()
			.startLagP99Ms(3.0)
			.engines(List.of(new EngineLoad("127.0.0.4:1099", 100.0, 3.0), new EngineLoad("127.0.0.5:1099", 99.7, 1.0)))
			.build();
		SweepResults results = new SweepResults(quick.startedAt(), quick.preset(), quick.host(), quick.database(),
				quick.p99ObjectiveMs(), quick.workload(), List.of(distributed))
			.withTiming(quick.timing());

		writeAndReadCsv(results);

		SweepResults read = ResultsStore.read(this.output.resolve("latest").resolve(ResultsStore.RESULTS_JSON));
		assertThat(read).isEqualTo(results);
		assertThat(read.points().get(0).engines()).extracting(EngineLoad::engine)
			.containsExactly("127.0.0.4:1099", "127.0.0.5:1099");
	}

	@Test
	void resultsWrittenBeforeTheNewFiguresLoadAndLeaveThemEmptyInTheCsv() throws Exception {
		SweepResults paper = fixture("paper-results-20261123.json");

		assertThat(paper.timing()).isNull();
		assertThat(paper.points()).allSatisfy((point) -> {
			assertThat(point.startLagP99Ms()).isEqualTo(-1);
			assertThat(point.refusals()).isEmpty();
			assertThat(point.serverLatency()).isEmpty();
			assertThat(point.serverP99Ms()).isEqualTo(-1);
		});
		List<CSVRecord> rows = writeAndReadCsv(paper);
		assertThat(rows).hasSize(18);
		// single, pool 1, 2000 rps: 7731 requests, 4753 failed, in 5 s
		CSVRecord died = rows.get(2);
		assertThat(died.get("outcome")).contains("died during the point");
		assertThat(died.get("throughputRps")).isEqualTo("595.600");
		assertThat(died.get("startLagP99Ms")).isEmpty();
		assertThat(died.get("refused_too_many_clients")).isEmpty();
		assertThat(died.get("serverP50Ms")).isEmpty();
		assertThat(died.get("serverP99Ms")).isEmpty();
		assertThat(ResultsStore.read(this.output.resolve("latest").resolve(ResultsStore.RESULTS_JSON)))
			.isEqualTo(paper);
	}

	@Test
	void serverLatencyWrittenBeforeItsSpanWasRecordedReadsWithSpanZero() throws Exception {
		Path file = Path
			.of(ResultsStoreTests.class.getResource("/org/poollab/bench/report/threads-results-20261125.json").toURI());
		assertThat(Files.readString(file)).contains("\"p50Ms\"").doesNotContain("\"spanMs\"");

		SweepResults threads = ResultsStore.read(file);

		assertThat(threads.points()).flatExtracting(Point::serverLatency)
			.isNotEmpty()
			.extracting(ServerLatency::spanMs)
			.containsOnly(0L);
	}

	@Test
	void aFlatResultsFileOfTheEarlierLabIsReadGroupedAndSaysSoWhileItsRewriteIsGrouped() throws Exception {
		Path flat = Path
			.of(ResultsStoreTests.class.getResource("/org/poollab/bench/report/quick-results-new-format.json").toURI());
		assertThat(Files.readString(flat)).contains("\"achievedRps\"").doesNotContain("\"requests\"");

		ResultsStore.Read read = ResultsStore.readWithShape(flat);

		assertThat(read.shape()).isEqualTo(ResultsStore.Shape.FLAT);
		Point first = read.results().points().get(0);
		assertThat(first.requests().achievedRps()).isEqualTo(first.achievedRps()).isPositive();
		assertThat(first.window().durationSeconds()).isPositive();
		ResultsStore store = ResultsStore.create(this.output, read.results().startedAt());
		store.write(read.results());
		Path rewritten = store.directory().resolve(ResultsStore.RESULTS_JSON);
		assertThat(Files.readString(rewritten)).contains("\"requests\"", "\"generator\"", "\"server\"")
			.doesNotContain("\"loadGeneratorCpuCores\"", "\"serverLatency\"");
		ResultsStore.Read again = ResultsStore.readWithShape(rewritten);
		assertThat(again.shape()).isEqualTo(ResultsStore.Shape.GROUPED);
		assertThat(again.results()).isEqualTo(read.results());
	}

	@Test
	void connectionsPerRequestRoundTripsAndResultsWithoutItReadAsOne() throws Exception {
		Path older = Path
			.of(ResultsStoreTests.class.getResource("/org/poollab/bench/report/quick-results-new-format.json").toURI());
		assertThat(Files.readString(older)).doesNotContain("\"connectionsPerRequest\"");
		SweepResults quick = ResultsStore.read(older);
		assertThat(quick.connectionsPerRequest()).isEqualTo(1);

		SweepResults two = quick.withConnectionsPerRequest(2);
		writeAndReadCsv(two);

		SweepResults read = ResultsStore.read(this.output.resolve("latest").resolve(ResultsStore.RESULTS_JSON));
		assertThat(read.connectionsPerRequest()).isEqualTo(2);
		assertThat(read).isEqualTo(two);
	}

	@Test
	void resultsWrittenBeforeSlowMotionReadAtTheTeamsTimeAndASlowedPointRoundTrips() throws Exception {
		Path older = Path
			.of(ResultsStoreTests.class.getResource("/org/poollab/bench/report/quick-results-new-format.json").toURI());
		assertThat(Files.readString(older)).doesNotContain("\"timeScale\"");
		SweepResults quick = ResultsStore.read(older);
		assertThat(quick.points()).isNotEmpty().allSatisfy((point) -> {
			assertThat(point.timeScale()).isEqualTo(1);
			assertThat(point.overheadMs()).isZero();
			assertThat(point.labLatency()).isNull();
		});

		Point first = quick.points().get(0);
		Point slowed = first.toBuilder().timeScale(4, 2.5, new Latency(40, 38, 50, 60, 70, 80)).build();
		List<Point> points = new ArrayList<>(quick.points());
		points.set(0, slowed);
		writeAndReadCsv(new SweepResults(quick.startedAt(), quick.preset(), quick.host(), quick.database(),
				quick.p99ObjectiveMs(), quick.workload(), points, quick.timing(), quick.confirmations(), quick.slo(),
				quick.databases(), quick.connectionsPerRequest()));
		Point read = ResultsStore.read(this.output.resolve("latest").resolve(ResultsStore.RESULTS_JSON))
			.points()
			.get(0);
		assertThat(read.timeScale()).isEqualTo(4);
		assertThat(read.overheadMs()).isEqualTo(2.5);
		assertThat(read.labLatency()).isEqualTo(slowed.labLatency());
		assertThat(read.latency()).isEqualTo(first.latency());
	}

	private List<CSVRecord> writeAndReadCsv(SweepResults results) throws IOException {
		ResultsStore store = ResultsStore.create(this.output, results.startedAt());
		store.write(results);
		try (Reader reader = Files.newBufferedReader(store.directory().resolve(ResultsStore.RESULTS_CSV))) {
			return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(reader).getRecords();
		}
	}

	@Test
	void resultsWrittenBeforeTheVendorWasRecordedReadAsPostgreSql() throws Exception {
		SweepResults older = fixture("quick-results-new-format.json");
		assertThat(Files.readString(
				Path.of(ResultsStoreTests.class.getResource("/org/poollab/bench/report/quick-results-new-format.json")
					.toURI())))
			.as("a file without the vendor")
			.doesNotContain("\"vendor\"");

		assertThat(older.database().vendor()).isEqualTo(DatabaseFacts.DEFAULT_VENDOR);
		assertThat(older.databases()).containsExactly(older.database());
		assertThat(older.points()).extracting((point) -> point.limits().vendor())
			.containsOnly(DatabaseVendor.POSTGRESQL);
	}

	@Test
	void eachDatabaseOfASweepOverVendorsRoundTripsWithEachPointsVendor() throws Exception {
		SweepResults quick = fixture("quick-results-new-format.json");
		DatabaseFacts mariaDb = new DatabaseFacts("embedded", "MariaDB", "jdbc:mariadb://127.0.0.1:3306/poollab",
				"10.11.5-MariaDB", 300, 0);
		List<Point> points = new ArrayList<>(quick.points());
		Point first = quick.points().get(0);
		points.add(first.toBuilder()
			.limits(new Limits(0, "512m", DatabaseVendor.MARIADB, Stack.JDBC, RequestThreads.TOMCAT_DEFAULT))
			.build());
		SweepResults results = new SweepResults(quick.startedAt(), quick.preset(), quick.host(), quick.database(),
				quick.p99ObjectiveMs(), quick.workload(), points)
			.withTiming(quick.timing())
			.withDatabase(mariaDb);

		List<CSVRecord> rows = writeAndReadCsv(results);

		SweepResults read = ResultsStore.read(this.output.resolve("latest").resolve(ResultsStore.RESULTS_JSON));
		assertThat(read).isEqualTo(results);
		assertThat(read.databases()).containsExactly(quick.database(), mariaDb);
		assertThat(read.databaseOf(read.points().get(points.size() - 1).limits())).isEqualTo(mariaDb);
		assertThat(read.databaseOf(read.points().get(0).limits())).isEqualTo(quick.database());
		assertThat(rows.get(0).get("vendor")).isEqualTo("postgresql");
		assertThat(rows.get(rows.size() - 1).get("vendor")).isEqualTo("mariadb");
	}

	@Test
	void theVendorRoundTrips() throws Exception {
		SweepResults quick = fixture("quick-results-new-format.json");
		DatabaseFacts mariaDb = new DatabaseFacts("embedded", "MariaDB", "jdbc:mariadb://127.0.0.1:3306/poollab",
				"10.11.5-MariaDB", 300, 0);
		SweepResults results = new SweepResults(quick.startedAt(), quick.preset(), quick.host(), mariaDb,
				quick.p99ObjectiveMs(), quick.workload(), quick.points())
			.withTiming(quick.timing());

		ResultsStore.create(this.output, results.startedAt()).write(results);

		SweepResults read = ResultsStore.read(this.output.resolve("latest").resolve(ResultsStore.RESULTS_JSON));
		assertThat(read.database()).isEqualTo(mariaDb);
	}

	@Test
	void theStoreAttachesTheModelSoWhatIsWrittenReturnedAndReadAgree() throws Exception {
		SweepResults quick = fixture("quick-results-new-format.json");
		SweepResults measured = new SweepResults(quick.startedAt(), quick.preset(), quick.host(), quick.database(),
				quick.p99ObjectiveMs(), quick.workload(), List.of(PredictionsTests.point(50, 600, 10.2, 10.9, 13.0),
						PredictionsTests.point(10, 600, 10.1, 10.8, 14.0)));
		assertThat(measured.points()).allSatisfy((point) -> assertThat(point.model()).isNull());

		ResultsStore store = ResultsStore.create(this.output, measured.startedAt());
		SweepResults written = store.write(measured);
		SweepResults read = ResultsStore.read(store.directory().resolve(ResultsStore.RESULTS_JSON));

		QueuePrediction atTen = written.points().get(1).model();
		assertThat(atTen).isNotNull();
		assertThat(atTen.basePoolSize()).isEqualTo(50);
		assertThat(read.points().get(1).model()).isEqualTo(atTen);
		assertThat(read.points()).isEqualTo(written.points());
	}

	@Test
	void resultsStoredWithoutTheModelReadWithIt() throws Exception {
		SweepResults quick = fixture("quick-results-new-format.json");
		SweepResults measured = new SweepResults(quick.startedAt(), quick.preset(), quick.host(), quick.database(),
				quick.p99ObjectiveMs(), quick.workload(), List.of(PredictionsTests.point(50, 600, 10.2, 10.9, 13.0),
						PredictionsTests.point(10, 600, 10.1, 10.8, 14.0)));
		Path file = this.output.resolve(ResultsStore.RESULTS_JSON);
		JsonMapper.builder().build().writeValue(file.toFile(), measured);
		assertThat(Files.readString(file)).doesNotContain("basePoolSize");

		assertThat(ResultsStore.read(file).points().get(1).model()).isNotNull()
			.extracting(QueuePrediction::basePoolSize)
			.isEqualTo(50);
	}

	private static SweepResults fixture(String name) throws IOException, URISyntaxException {
		return ResultsStore
			.read(Path.of(ResultsStoreTests.class.getResource("/org/poollab/bench/report/" + name).toURI()));
	}

}
