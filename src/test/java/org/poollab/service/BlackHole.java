package org.poollab.service;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local address that accepts TCP connections and never answers on them, as a firewalled
 * or hung database server does: PostgreSQL's startup packet gets no reply. While open,
 * {@link DriverManager}'s JVM-wide login timeout is 0 (none), so that only the timeouts
 * the code under test sets itself can end a connection attempt (HikariCP sets the
 * JVM-wide one whenever a pool starts, which would hide a missing one).
 */
public final class BlackHole implements AutoCloseable {

	private final ServerSocket server;

	private final List<Socket> accepted = new CopyOnWriteArrayList<>();

	private BlackHole(ServerSocket server) {
		this.server = server;
		Thread acceptor = new Thread(this::accept, "black-hole-" + server.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	public static BlackHole open() throws IOException {
		return new BlackHole(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
	}

	public int port() {
		return this.server.getLocalPort();
	}

	public String jdbcUrl(String database) {
		return "jdbc:postgresql://127.0.0.1:%d/%s".formatted(this.server.getLocalPort(), database);
	}

	/**
	 * @return how many connections reached the black hole
	 */
	public int connections() {
		return this.accepted.size();
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				this.accepted.add(this.server.accept());
			}
			catch (IOException ex) {
				// Closed.
			}
		}
	}

	/**
	 * Closes every accepted connection too, which ends the driver's own attempts still
	 * waiting for an answer in the background.
	 */
	@Override
	public void close() throws IOException {
		this.server.close();
		for (Socket socket : this.accepted) {
			socket.close();
		}
	}

}
