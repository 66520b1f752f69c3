package org.poollab.bench.grid;

import java.util.ArrayList;
import java.util.List;

import org.poollab.bench.results.RequestThreads;

/**
 * {@code bench.threads}: what runs the service's requests, a dimension of the grid.
 */
public enum ThreadModel {

	/** Tomcat's platform threads, {@code server.tomcat.threads.max} of them. */
	PLATFORM,

	/**
	 * A virtual thread per request ({@code spring.threads.virtual.enabled=true}, Java 21
	 * or later): Tomcat no longer caps concurrent requests, the pool is the only queue.
	 */
	VIRTUAL;

	/**
	 * The request threads a grid sweeps: every {@code server.tomcat.threads.max} value
	 * for platform threads, then virtual threads, in the order the models were given.
	 * @param models {@code bench.threads}, distinct
	 * @param tomcatThreads {@code server.tomcat.threads.max} values, 0 for Tomcat's
	 * default
	 */
	public static List<RequestThreads> requestThreads(List<ThreadModel> models, List<Integer> tomcatThreads) {
		List<RequestThreads> threads = new ArrayList<>();
		for (ThreadModel model : models) {
			if (model == VIRTUAL) {
				threads.add(RequestThreads.VIRTUAL);
			}
			else {
				tomcatThreads.forEach((max) -> threads.add(RequestThreads.platform(max)));
			}
		}
		return List.copyOf(threads);
	}

}
