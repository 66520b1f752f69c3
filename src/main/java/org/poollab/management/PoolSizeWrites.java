package org.poollab.management;

import java.util.List;

import org.springframework.http.server.PathContainer;

/**
 * Which requests are writes to the {@code poolsize} endpoint: every method but
 * {@code GET} and {@code HEAD} (the reads) on a path that ends with the endpoint's. Only
 * the end is compared, segment by segment, as the handler mappings see them (decoded,
 * without {@code ;} parameters, empty segments skipped): wherever a context path, a
 * servlet path or {@code management.server.base-path} puts the actuator, a request that
 * reaches the endpoint is matched, and one that does not change anything at worst needs
 * the token too.
 */
final class PoolSizeWrites {

	private final List<String> endpoint;

	/**
	 * @param endpointPath the endpoint's path below the actuator's base path, e.g.
	 * {@code poolsize}
	 */
	PoolSizeWrites(String endpointPath) {
		this.endpoint = segments(PathContainer.parsePath(endpointPath));
		if (this.endpoint.isEmpty()) {
			throw new IllegalArgumentException("No path segment in '" + endpointPath + "'");
		}
	}

	/**
	 * @param method the request's method
	 * @param path the request's path as it came (still encoded)
	 * @return whether the request needs the token
	 */
	boolean matches(String method, PathContainer path) {
		if (method.equals("GET") || method.equals("HEAD")) {
			return false;
		}
		List<String> segments = segments(path);
		int offset = segments.size() - this.endpoint.size();
		return offset >= 0 && segments.subList(offset, segments.size()).equals(this.endpoint);
	}

	private static List<String> segments(PathContainer path) {
		return path.elements()
			.stream()
			.filter(PathContainer.PathSegment.class::isInstance)
			.map((segment) -> ((PathContainer.PathSegment) segment).valueToMatch())
			.filter((segment) -> !segment.isEmpty())
			.toList();
	}

}
