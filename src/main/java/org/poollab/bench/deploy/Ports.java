package org.poollab.bench.deploy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;

import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.LabFailureException;

/**
 * The lab's ports on 127.0.0.1, in one block from {@code bench.basePort}: the entry (load
 * balancer), one per instance, pgbouncer's, then one management port per instance. All
 * are checked before anything starts.
 */
public record Ports(int base, int instances) {

	int entry() {
		return this.base;
	}

	int instance(int index) {
		return this.base + 1 + index;
	}

	/** pgbouncer's port, right after the last instance's. */
	int pgbouncer() {
		return instance(this.instances);
	}

	/**
	 * The instance's actuator port: a connector and threads of its own, so that the lab's
	 * telemetry and resizing still get through while the load has every request thread
	 * waiting for the pool.
	 */
	int management(int index) {
		return pgbouncer() + 1 + index;
	}

	private int last() {
		return management(this.instances - 1);
	}

	/**
	 * Waits until a server the lab started listens on its port on 127.0.0.1, for up to
	 * ten seconds.
	 * @param process the server
	 * @param name what it is, for the message
	 * @param log where it said why, when it did not come up
	 */
	static void awaitListening(Process process, int port, String name, Path log) throws InterruptedException {
		for (int attempt = 0; attempt < 100; attempt++) {
			if (!process.isAlive()) {
				throw new LabFailureException(
						"%s exited at start (code %d); see %s".formatted(name, process.exitValue(), log));
			}
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
				return;
			}
			catch (IOException ex) {
				Thread.sleep(100);
			}
		}
		throw new LabFailureException("%s did not listen on 127.0.0.1:%d; see %s".formatted(name, port, log));
	}

	/**
	 * Whether a port on 127.0.0.1 can be bound now.
	 */
	public static boolean free(int port) {
		try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
			// Binding is the check; the socket closes at once.
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	public void requireFree() {
		for (int port = this.base; port <= last(); port++) {
			if (!free(port)) {
				throw new BenchSettingException(
						"bench.basePort=%d: port %d on 127.0.0.1 is already in use (the lab needs ports %d to %d). Stop what uses it or choose another base, e.g. -Dbench.basePort=%d"
							.formatted(this.base, port, this.base, last(), this.base + 100));
			}
		}
	}

}
