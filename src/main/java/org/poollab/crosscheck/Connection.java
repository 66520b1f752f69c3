package org.poollab.crosscheck;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

import org.jspecify.annotations.Nullable;

/**
 * One keep-alive connection and the request it carries, if any: at most one at a time (no
 * pipelining), so a response always belongs to the request in flight.
 */
final class Connection {

	final Target target;

	final SocketChannel channel;

	final ResponseParser parser = new ResponseParser();

	/** This connection's copy of the request bytes, rewound for each send. */
	final ByteBuffer request;

	/**
	 * Its registration with the loop's selector: set by LoadLoop#connect, right after it
	 * is made.
	 */
	@Nullable SelectionKey key;

	boolean connected;

	/** Whether a request is assigned (sent, or waiting for the connection to open). */
	boolean busy;

	/** When the schedule wanted the request sent. */
	long intendedNs;

	/** When the request was written (or began to be): zero until then. */
	long sentNs;

	/** When the request was given to this connection, for its timeout. */
	long assignedNs;

	/** Whether the request counts (it was due after the warm-up). */
	boolean measured;

	/** The measured slice its due time falls in, for the per-slice p99 lines. */
	int slice;

	Connection(Target target, SocketChannel channel) {
		this.target = target;
		this.channel = channel;
		this.request = ByteBuffer.wrap(target.request);
	}

	void assign(long intendedNs, long nowNs, boolean measured) {
		this.busy = true;
		this.intendedNs = intendedNs;
		this.assignedNs = nowNs;
		this.sentNs = 0;
		this.measured = measured;
		this.parser.reset();
	}

}
