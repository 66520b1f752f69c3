package org.poollab.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * The lab's ports on 127.0.0.1: the entry (load balancer) at {@code bench.basePort} and
 * one per instance after it. All are checked before anything starts.
 */
record Ports(int base, int instances) {

	int entry() {
		return this.base;
	}

	int instance(int index) {
		return this.base + 1 + index;
	}

	/**
	 * pgbouncer's port, right after the last instance's. A sweep with the pgbouncer
	 * topology checks it with {@code new Ports(base, instances + 1)}.
	 */
	int pgbouncer() {
		return instance(this.instances);
	}

	void requireFree() {
		for (int port = this.base; port <= instance(this.instances - 1); port++) {
			try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
				// Binding is the check; the socket closes at once.
			}
			catch (IOException ex) {
				throw new BenchSettingException(
						"bench.basePort=%d: port %d on 127.0.0.1 is already in use (the lab needs ports %d to %d). Stop what uses it or choose another base, e.g. -Dbench.basePort=%d"
							.formatted(this.base, port, this.base, instance(this.instances - 1), this.base + 100));
			}
		}
	}

}
