package org.poollab.bench.load;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

/**
 * A stand-in for the service where only JMeter's side is under test: answers
 * {@code GET /roles} with 200 and counts what it served.
 */
final class StandInService {

	private StandInService() {
	}

	/** Started on {@code address}, any free port; the caller stops it. */
	static HttpServer start(String address, AtomicInteger served) throws IOException {
		HttpServer service = HttpServer.create(new InetSocketAddress(address, 0), 0);
		service.createContext("/roles", (exchange) -> {
			served.incrementAndGet();
			byte[] body = "[]".getBytes(StandardCharsets.US_ASCII);
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream response = exchange.getResponseBody()) {
				response.write(body);
			}
		});
		service.start();
		return service;
	}

}
