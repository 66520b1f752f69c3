package org.poollab.service.system;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * Clients that each send one request after another until stopped, every response kept
 * with when its request was sent and answered.
 */
final class RequestLoad implements AutoCloseable {

	private final ExecutorService clients;

	private final Queue<Timed> responses = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final List<Future<?>> loops = new ArrayList<>();

	private RequestLoad(int clients) {
		this.clients = Executors.newFixedThreadPool(clients);
	}

	static RequestLoad start(int clients, Request request) {
		RequestLoad load = new RequestLoad(clients);
		for (int i = 0; i < clients; i++) {
			load.loops.add(load.clients.submit(() -> {
				while (load.running.get()) {
					long sentNanos = System.nanoTime();
					HttpResponse<String> response = request.send();
					load.responses.add(new Timed(response, sentNanos, System.nanoTime()));
				}
				return null;
			}));
		}
		return load;
	}

	long count(Predicate<Timed> filter) {
		return this.responses.stream().filter(filter).count();
	}

	long count(int status) {
		return count((timed) -> timed.status() == status);
	}

	/**
	 * Stops the clients, letting each finish its request in flight.
	 * @return every response, also those of the requests in flight when stopped
	 */
	List<Timed> stop() throws Exception {
		this.running.set(false);
		for (Future<?> loop : this.loops) {
			loop.get(30, TimeUnit.SECONDS);
		}
		return List.copyOf(this.responses);
	}

	@Override
	public void close() {
		this.running.set(false);
		this.clients.shutdownNow();
	}

	interface Request {

		HttpResponse<String> send() throws Exception;

	}

	/**
	 * @param response what came back
	 * @param sentNanos {@link System#nanoTime()} just before the request was sent
	 * @param answeredNanos {@link System#nanoTime()} when the whole response was in
	 */
	record Timed(HttpResponse<String> response, long sentNanos, long answeredNanos) {

		int status() {
			return this.response.statusCode();
		}

		long elapsedMs() {
			return TimeUnit.NANOSECONDS.toMillis(this.answeredNanos - this.sentNanos);
		}

		boolean isProblem() {
			return this.response.headers().firstValue("Content-Type").orElse("").equals("application/problem+json");
		}

	}

}
