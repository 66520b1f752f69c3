package org.poollab.crosscheck;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * The generator's schedule, its HTTP parsing, its loopback-only rule, and a short run
 * against a local server.
 */
class OpenLoopCheckTests {

	@Test
	void evenScheduleSendsTheKthRequestAtKOverRate() {
		Schedule schedule = Schedule.even(2000);
		for (long k = 0; k < 100_000; k++) {
			assertThat(schedule.nextOffsetNs()).isEqualTo(k * 500_000);
		}
		Schedule third = Schedule.even(3);
		assertThat(
				new long[] { third.nextOffsetNs(), third.nextOffsetNs(), third.nextOffsetNs(), third.nextOffsetNs() })
			.containsExactly(0, 333_333_333, 666_666_667, 1_000_000_000);
	}

	@Test
	void poissonScheduleKeepsTheMeanRateAndRepeatsWithTheSameSeed() {
		Schedule schedule = Schedule.poisson(2000, 42);
		int requests = 200_000;
		long last = 0;
		long shortGaps = 0;
		for (int k = 0; k < requests; k++) {
			long offsetNs = schedule.nextOffsetNs();
			assertThat(offsetNs).isGreaterThanOrEqualTo(last);
			// Exponential gaps: P(gap < mean / 2) = 1 - e^-0.5 = 0.393; evenly spaced
			// would be 0.
			if (k > 0 && offsetNs - last < 250_000) {
				shortGaps++;
			}
			last = offsetNs;
		}
		double rateRps = (requests - 1) / (last / 1e9);
		assertThat(rateRps).isCloseTo(2000, within(20.0));
		assertThat(shortGaps / (double) requests).isCloseTo(0.393, within(0.01));
		Schedule again = Schedule.poisson(2000, 42);
		Schedule first = Schedule.poisson(2000, 42);
		for (int k = 0; k < 1000; k++) {
			assertThat(again.nextOffsetNs()).isEqualTo(first.nextOffsetNs());
		}
	}

	@Test
	void parsesContentLengthResponsesAndLeavesTheNextResponseInTheBuffer() throws IOException {
		ResponseParser parser = new ResponseParser();
		ByteBuffer bytes = ascii("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\nhello"
				+ "HTTP/1.1 503 Service Unavailable\r\ncontent-length: 2\r\nConnection: close\r\n\r\n{}");

		assertThat(parser.feed(bytes)).isTrue();
		assertThat(parser.status()).isEqualTo(200);
		assertThat(parser.keepAlive()).isTrue();
		parser.reset();
		assertThat(parser.feed(bytes)).isTrue();
		assertThat(parser.status()).isEqualTo(503);
		assertThat(parser.keepAlive()).isFalse();
		assertThat(bytes.hasRemaining()).isFalse();
	}

	@Test
	void parsesAChunkedResponseSplitAcrossReadsAtEveryByte() throws IOException {
		String response = "HTTP/1.1 200 \r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n"
				+ "7\r\n[{\"id\":\r\n1a;ext=1\r\n1,\"name\":\"admin\"}]        \r\n0\r\nTrailer: x\r\n\r\n";
		ResponseParser parser = new ResponseParser();
		byte[] bytes = response.getBytes(StandardCharsets.US_ASCII);
		for (int i = 0; i < bytes.length; i++) {
			boolean complete = parser.feed(ByteBuffer.wrap(bytes, i, 1));
			assertThat(complete).as("complete after byte %d of %d", i + 1, bytes.length)
				.isEqualTo(i == bytes.length - 1);
		}
		assertThat(parser.status()).isEqualTo(200);
		assertThat(parser.keepAlive()).isTrue();

		for (int split = 1; split < bytes.length; split++) {
			parser.reset();
			assertThat(parser.feed(ByteBuffer.wrap(bytes, 0, split))).isFalse();
			assertThat(parser.feed(ByteBuffer.wrap(bytes, split, bytes.length - split))).isTrue();
		}
	}

	@Test
	void aBodyWithoutLengthEndsWithTheConnection() throws IOException {
		ResponseParser parser = new ResponseParser();
		assertThat(parser.feed(ascii("HTTP/1.0 200 OK\r\n\r\npartial body"))).isFalse();
		assertThat(parser.endOfStream()).isTrue();
		assertThat(parser.keepAlive()).isFalse();
	}

	@Test
	void refusesUrlsThatAreNotOnLoopback() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Settings.parse("--url=http://127.0.0.1:18080/roles,http://10.1.2.3:8080/roles").targets())
			.withMessage(
					"Refusing --url=http://10.1.2.3:8080/roles: host 10.1.2.3 is not a loopback address (127.0.0.0/8 or ::1); this check sends load only to this machine's loopback");
		assertThatIllegalArgumentException().isThrownBy(() -> Settings.parse("--url=https://127.0.0.1/roles").targets())
			.withMessageContaining("only http://");
		assertThat(Settings.parse("--url=http://127.0.0.2:1/a", "--url=http://[::1]:2/b?c=d").targets())
			.extracting((target) -> target.address.getAddress().isLoopbackAddress())
			.containsExactly(true, true);
		assertThat(new String(Target.of("http://[::1]:2/b?c=d").request, StandardCharsets.US_ASCII))
			.startsWith("GET /b?c=d HTTP/1.1\r\nHost: [::1]:2\r\n");
	}

	@Test
	void badArgumentsNameTheArgument() {
		assertThatIllegalArgumentException().isThrownBy(() -> Settings.parse("--url=http://127.0.0.1/", "--rate=x"))
			.withMessage("--rate=x: not a number");
		assertThatIllegalArgumentException().isThrownBy(() -> Settings.parse("--url=http://127.0.0.1/", "--rps=5"))
			.withMessageStartingWith("--rps: unknown option");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Settings.parse("--url=http://127.0.0.1/", "--arrivals=bursty"))
			.withMessage("--arrivals=bursty: must be even or random");
		assertThat(Settings.parse("--url=http://127.0.0.1/", "--duration=1.5s", "--warmup=250ms", "--timeout=1m"))
			.satisfies((settings) -> {
				assertThat(settings.duration().toMillis()).isEqualTo(1500);
				assertThat(settings.warmup().toMillis()).isEqualTo(250);
				assertThat(settings.timeout().toSeconds()).isEqualTo(60);
			});
	}

	@Test
	void sendsEveryDueRequestToALocalServerAndRecordsItsLatency() throws IOException {
		byte[] body = "[{\"id\":1,\"name\":\"admin\"}]".getBytes(StandardCharsets.US_ASCII);
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.createContext("/roles", (exchange) -> {
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		server.start();
		try {
			String url = "http://127.0.0.1:%d/roles".formatted(server.getAddress().getPort());
			Outcome outcome = new LoadLoop(Settings.parse("--url=" + url, "--rate=200", "--duration=2s",
					"--warmup=200ms", "--timeout=2s", "--slices=1s"))
				.run();

			assertThat(outcome.counts().due()).isEqualTo(400);
			assertThat(outcome.counts().sent()).isEqualTo(400);
			assertThat(outcome.counts().ok()).isEqualTo(400);
			assertThat(outcome.counts().errors()).isEmpty();
			assertThat(outcome.latencies().fromIntendedUs().getTotalCount()).isEqualTo(400);
			assertThat(outcome.latencies().fromIntendedUs().getMinValue()).isPositive();
			assertThat(outcome.latencies().fromIntendedUs().getMaxValue()).isLessThan(2_000_000);
			assertThat(outcome.latencies().slicesFromIntendedUs()).extracting((slice) -> slice.getTotalCount())
				.containsExactly(200L, 200L);
			assertThat(outcome.cost().connectionsOpened()).isBetween(1L, 400L);
			assertThat(outcome.resultLine())
				.startsWith("result rate=200 arrivals=even duration_s=2 due=400 sent=400 ok=400 errors=0 p50_ms=");
		}
		finally {
			server.stop(0);
		}
	}

	private static ByteBuffer ascii(String text) {
		return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
	}

}
