package org.poollab.bench.grid;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.DoubleStream;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.model.HistogramQuantile;
import org.poollab.service.hold.HoldHistogram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code bench.holdTimeFrom} on expositions saved from running Spring Boot services (each
 * pair's origin in {@code holdtimefrom/README.md}): a tail wider than any lognormal,
 * drawn as measured; start-up holds in the lifetime totals and not in the window; more
 * than one connection use per request. The draws' mean and p99 match the window's within
 * 10 % and 25 %, the lab's tolerances for a measured hold.
 */
class HoldTimeFromExpositionsTests {

	private static final Path FIXTURES = Path.of("src/test/resources/org/poollab/bench/grid/holdtimefrom");

	private static final int DRAWS = 200_000;

	@Test
	void aTailWiderThanAnyLognormalIsDrawnAsMeasured() {
		Window window = Window.of("tail");
		assertThat(window.p99Ms() / window.meanMs()).as("the fixture's p99 over its mean").isGreaterThan(15);
		HoldTimeFrom.Read read = HoldTimeFrom.parse("tail", window.before, window.after, null);
		assertThat(read.histogram()).isNotNull();
		assertDrawsMatch(read.histogram(), window);
	}

	@Test
	void startUpHoldsAreInTheLifetimeTotalsAndNotInTheWindow() {
		Window window = Window.of("startup");
		HoldTimeFrom.Read lifetime = HoldTimeFrom.parse("startup-after.txt", window.after);
		HoldTimeFrom.Read read = HoldTimeFrom.parse("startup", window.before, window.after, null);
		// The first seconds' holds, a cold JVM and cold backends, were several times the
		// window's.
		assertThat(Window.total(window.before, "_sum") / Window.total(window.before, "_count") * 1000)
			.isGreaterThan(2 * read.hold().meanMs());
		assertThat(lifetime.hold().meanMs()).isGreaterThan(1.3 * read.hold().meanMs());
		assertThat(lifetime.description()).contains("these are totals since start, start-up included",
				"the service started 43s before the scrape");
		assertThat(read.description()).contains("lifetime totals: 1392 uses", "the window's mean is 0.65x it");
		assertDrawsMatch(read.histogram(), window);
	}

	@Test
	void usesPerRequestComeFromTheRequestCounter() {
		Window window = Window.of("uses");
		HoldTimeFrom.Read read = HoldTimeFrom.parse("uses", window.before, window.after, null);
		assertThat(read.usesPerRequest()).isCloseTo(2.5, within(0.1));
		assertThat(read.description()).contains("uses per request: 2.", "every uri but /actuator/**");
		HoldTimeFrom.Read roles = HoldTimeFrom.parse("uses", window.before, window.after, "/roles");
		assertThat(roles.usesPerRequest()).isEqualTo(read.usesPerRequest());
		assertDrawsMatch(read.histogram(), window);
	}

	@Test
	void aPlainAppsWindowHasOneUsePerRequestAndItsStartUpOnlyInTheLifetime() {
		Window window = Window.of("plainapp");
		HoldTimeFrom.Read read = HoldTimeFrom.parse("plainapp", window.before, window.after, "/greetings");
		assertThat(read.usesPerRequest()).isEqualTo(1.0);
		assertThat(read.description()).contains("1446 uses", "uses per request: 1.00 (1446 uses by 1446 requests");
		// A sub-millisecond hold: HikariCP's whole milliseconds cut most uses to 0, the
		// buckets say where in the millisecond they lie.
		assertThat(window.meanMs()).isCloseTo(0.614, within(0.001));
		assertThat(read.hold().meanMs()).isBetween(window.meanMs(), window.meanMs() + 1);
		assertThat(read.description()).contains("_sum / _count says 0.614 ms");
		// The first scrape, right after start: the cold first requests held 4.5 times the
		// window's mean.
		HoldTimeFrom.Read firstScrape = HoldTimeFrom.parse("plainapp-before.txt", window.before);
		assertThat(Window.total(window.before, "_sum") / Window.total(window.before, "_count") * 1000)
			.isGreaterThan(4 * window.meanMs());
		assertThat(firstScrape.description()).contains("these are totals since start, start-up included",
				"the service started 21s before the scrape");
		assertThat(read.description()).contains("lifetime totals: 1468 uses");
		assertDrawsMatch(read.histogram(), window);
	}

	@Test
	void anOrdersPageTakesThePoolTwoOrThreeTimesAndARareSlowQueryWidensItsTail() {
		Window window = Window.of("ordersapp");
		assertThat(window.p99Ms() / window.meanMs()).as("the fixture's p99 over its mean").isGreaterThan(15);
		HoldTimeFrom.Read read = HoldTimeFrom.parse("ordersapp", window.before, window.after, null);
		// Its uri is templated, /orders/{id}: a label value with braces in it.
		assertThat(read.usesPerRequest()).isCloseTo(2.5, within(0.05));
		assertThat(read.description()).contains("uses per request: 2.51 (5339 uses by 2129 requests");
		assertThat(HoldTimeFrom.parse("ordersapp", window.before, window.after, "/orders/{id}").usesPerRequest())
			.isEqualTo(read.usesPerRequest());
		assertDrawsMatch(read.histogram(), window);
	}

	/**
	 * Every saved exposition is read, alone (totals since start) and with its pair: none
	 * is refused for its shape.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "plainapp", "ordersapp", "tail", "startup", "uses" })
	void noSavedExpositionIsRefused(String name) {
		Window window = Window.of(name);
		for (String exposition : List.of(window.before, window.after)) {
			HoldTimeFrom.Read lifetime = HoldTimeFrom.parse(name, exposition);
			assertThat(lifetime.histogram()).isNotNull();
			assertThat(lifetime.usesPerRequest()).isGreaterThanOrEqualTo(1);
		}
		HoldTimeFrom.Read read = HoldTimeFrom.parse(name, window.before, window.after, null);
		assertThat(read.description()).contains("lifetime totals:");
	}

	@Test
	void aUriWithNoRequestsIsRefusedNamingTheOnesThereAre() {
		Window window = Window.of("uses");
		assertThatThrownBy(() -> HoldTimeFrom.parse("uses", window.before, window.after, "/owners"))
			.isInstanceOf(BenchSettingException.class)
			.hasMessageStartingWith("bench.holdTimeFrom=uses is not allowed: bench.holdTimeFromUri=/owners has no "
					+ "requests counted in it (the uris it has: ")
			.hasMessageContaining("/roles")
			.hasMessageNotContaining("\n");
	}

	@Test
	void usesAskedOfAnExpositionWithoutARequestCounterAreRefused() {
		Window window = Window.of("tail");
		assertThatThrownBy(() -> HoldTimeFrom.parse("tail", withoutRequests(window.before),
				withoutRequests(window.after), "/roles"))
			.isInstanceOf(BenchSettingException.class)
			.hasMessageContaining(
					"bench.holdTimeFromUri=/roles asks for uses per request, and it has no http_server_requests_seconds_count")
			.hasMessageNotContaining("\n");
	}

	@Test
	void aUrlIsScrapedTwiceAWindowApart() throws IOException {
		Window window = Window.of("uses");
		AtomicInteger scrapes = new AtomicInteger();
		HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		server.createContext("/actuator/prometheus", (exchange) -> {
			byte[] body = ((scrapes.getAndIncrement() == 0) ? window.before : window.after)
				.getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		server.start();
		try {
			String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/actuator/prometheus";
			List<String> said = new ArrayList<>();
			HoldTimeFrom.Read read = HoldTimeFrom.read(url, Duration.ofSeconds(1), null, said::add);
			assertThat(scrapes).hasValue(2);
			assertThat(said).singleElement().asString().contains("a second scrape in 1s (bench.holdTimeFromWindow)");
			assertThat(read.description()).contains("1s between two scrapes");
			assertThat(read.usesPerRequest())
				.isEqualTo(HoldTimeFrom.parse("uses", window.before, window.after, null).usesPerRequest());
		}
		finally {
			server.stop(0);
		}
	}

	@Test
	void twoFilesAreTwoScrapesApartByTheirUptime() {
		String source = FIXTURES.resolve("uses-before.txt") + "," + FIXTURES.resolve("uses-after.txt");
		HoldTimeFrom.Read read = HoldTimeFrom.read(source, null, null, (line) -> {
		});
		assertThat(read.description()).contains("between two scrapes (process_uptime_seconds)");
	}

	private static String withoutRequests(String exposition) {
		return exposition.lines()
			.filter((line) -> !line.startsWith("http_server_requests"))
			.reduce("", (all, line) -> all + line + "\n");
	}

	/** Draws from the sampler as an instance would, against the window's own figures. */
	private static void assertDrawsMatch(HoldHistogram histogram, Window window) {
		double[] draws = DoubleStream.generate(histogram.sampler(18081)).limit(DRAWS).toArray();
		double mean = Arrays.stream(draws).average().orElseThrow();
		Arrays.sort(draws);
		double p99 = draws[(int) (0.99 * DRAWS)];
		// _sum / _count is the mean to within the whole millisecond HikariCP cuts off
		// each use.
		assertThat(mean).as("the draws' mean against the window's _sum/_count")
			.isBetween(window.meanMs() * 0.90, (window.meanMs() + 1) * 1.10)
			.isCloseTo(histogram.meanMs(), within(histogram.meanMs() * 0.02));
		assertThat(p99).as("the draws' p99 against the window's histogram_quantile(0.99)")
			.isCloseTo(window.p99Ms(), within(window.p99Ms() * 0.25));
		// Cut down to whole milliseconds as HikariCP records a use, the draws give its
		// _sum / _count back: each bucket read as the span its uses lasted.
		assertThat(Arrays.stream(draws).map(Math::floor).average().orElseThrow())
			.as("the draws cut down to whole milliseconds against the window's _sum/_count")
			.isCloseTo(window.meanMs(), within(window.meanMs() * 0.02));
	}

	/** A fixture's two scrapes and the window's HikariCP usage between them. */
	record Window(String before, String after) {

		static Window of(String name) {
			try {
				return new Window(Files.readString(FIXTURES.resolve(name + "-before.txt")),
						Files.readString(FIXTURES.resolve(name + "-after.txt")));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		double meanMs() {
			return 1000 * (total(this.after, "_sum") - total(this.before, "_sum"))
					/ (total(this.after, "_count") - total(this.before, "_count"));
		}

		double p99Ms() {
			Map<Double, Double> buckets = new TreeMap<>(buckets(this.after));
			buckets(this.before).forEach((le, count) -> buckets.merge(le, -count, Double::sum));
			return HistogramQuantile.interpolatedMs(buckets, total(this.after, "_count") - total(this.before, "_count"),
					0.99);
		}

		static double total(String exposition, String suffix) {
			return exposition.lines()
				.filter((line) -> line.startsWith(HoldTimeFrom.SERIES + suffix))
				.mapToDouble((line) -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
				.sum();
		}

		private static Map<Double, Double> buckets(String exposition) {
			Map<Double, Double> buckets = new TreeMap<>();
			exposition.lines().filter((line) -> line.startsWith(HoldTimeFrom.SERIES + "_bucket")).forEach((line) -> {
				String le = line.replaceAll(".*le=\"([^\"]+)\".*", "$1");
				buckets.merge(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le),
						Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)), Double::sum);
			});
			return buckets;
		}

	}

}
