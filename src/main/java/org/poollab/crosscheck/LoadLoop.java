package org.poollab.crosscheck;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * The open-loop sender: one thread with non-blocking sockets and a selector sends request
 * k at its due time whatever the earlier ones are doing, and reads every response as it
 * arrives.
 * <p>
 * {@link Selector#select(long)} waits in whole milliseconds, too coarse for 0.5 ms gaps
 * at 2000 rps; a second thread parks until each due time ({@code parkNanos}, ~60 µs late
 * here) and wakes the selector, so the loop never spins and still reads responses the
 * moment they arrive.
 */
final class LoadLoop {

	private static final long TIMEOUT_SCAN_NS = TimeUnit.MILLISECONDS.toNanos(100);

	private static final int READ_BUFFER_BYTES = 64 * 1024;

	private final Settings settings;

	private final List<Target> targets;

	private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(READ_BUFFER_BYTES);

	private final List<Connection> open = new ArrayList<>();

	private final Histogram fromIntendedUs = new Histogram(3);

	private final Histogram fromSentUs = new Histogram(3);

	private final Histogram sendLagUs = new Histogram(3);

	private final List<Histogram> slices = new ArrayList<>();

	private final TreeMap<String, Long> errors = new TreeMap<>();

	private final long warmupNs;

	private final long sliceNs;

	private final long timeoutNs;

	/**
	 * The selector of the running loop: set by {@link #run()}, which every other method
	 * runs inside.
	 */
	private @Nullable Selector selector;

	private long due;

	private long sent;

	private long ok;

	private long connectionsOpened;

	private int mostOpen;

	private int busy;

	LoadLoop(Settings settings) {
		this.settings = settings;
		this.targets = settings.targets();
		this.warmupNs = settings.warmup().toNanos();
		this.sliceNs = settings.slice().toNanos();
		this.timeoutNs = settings.timeout().toNanos();
		if (this.sliceNs > 0) {
			long count = (settings.duration().toNanos() + this.sliceNs - 1) / this.sliceNs;
			for (long i = 0; i < count; i++) {
				this.slices.add(new Histogram(3));
			}
		}
	}

	Outcome run() throws IOException {
		long endOffsetNs = this.warmupNs + this.settings.duration().toNanos();
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		try (Selector selector = Selector.open()) {
			this.selector = selector;
			long startNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
			long deadlineNs = startNs + endOffsetNs + this.timeoutNs;
			Thread timer = timer(selector, startNs, endOffsetNs);
			Schedule schedule = this.settings.schedule();
			long offsetNs = schedule.nextOffsetNs();
			long k = 0;
			boolean sending = true;
			CpuSample measuredStart = (this.warmupNs == 0) ? CpuSample.take(threads) : null;
			CpuSample measuredEnd = null;
			long lastScanNs = System.nanoTime();
			while (true) {
				long nowNs = System.nanoTime();
				while (sending && startNs + offsetNs <= nowNs) {
					boolean measured = offsetNs >= this.warmupNs;
					if (measured && measuredStart == null) {
						measuredStart = CpuSample.take(threads);
					}
					send(this.targets.get((int) (k++ % this.targets.size())), startNs + offsetNs, offsetNs, measured);
					offsetNs = schedule.nextOffsetNs();
					if (offsetNs >= endOffsetNs) {
						sending = false;
						measuredEnd = CpuSample.take(threads);
					}
				}
				if ((!sending && this.busy == 0) || nowNs >= deadlineNs) {
					break;
				}
				if (nowNs - lastScanNs >= TIMEOUT_SCAN_NS) {
					expire(nowNs);
					lastScanNs = nowNs;
				}
				long waitMs = sending ? TimeUnit.NANOSECONDS.toMillis(startNs + offsetNs - nowNs) + 1 : 100;
				selector.select(this::onReady, Math.max(1, Math.min(waitMs, 100)));
			}
			timer.interrupt();
			for (Connection connection : List.copyOf(this.open)) {
				if (connection.busy) {
					fail(connection, "timeout");
				}
				else {
					close(connection);
				}
			}
			measuredEnd = (measuredEnd != null) ? measuredEnd : CpuSample.take(threads);
			measuredStart = (measuredStart != null) ? measuredStart : measuredEnd;
			return new Outcome(this.settings,
					new Outcome.Counts(this.due, this.sent, this.ok, new TreeMap<>(this.errors)),
					new Outcome.Latencies(this.fromIntendedUs, this.fromSentUs, this.sendLagUs, this.slices),
					new Outcome.Cost(measuredStart.coresUntil(measuredEnd), measuredStart.loopCoresUntil(measuredEnd),
							this.connectionsOpened, this.mostOpen));
		}
	}

	/**
	 * Wakes the selector at each due time; it sends nothing itself. It walks its own copy
	 * of the schedule, so the two threads share nothing but the selector.
	 */
	private Thread timer(Selector selector, long startNs, long endOffsetNs) {
		Schedule schedule = this.settings.schedule();
		Thread timer = new Thread(() -> {
			for (long offsetNs = schedule.nextOffsetNs(); offsetNs < endOffsetNs; offsetNs = schedule.nextOffsetNs()) {
				long dueNs = startNs + offsetNs;
				for (long waitNs = dueNs - System.nanoTime(); waitNs > 0; waitNs = dueNs - System.nanoTime()) {
					LockSupport.parkNanos(waitNs);
					if (Thread.currentThread().isInterrupted()) {
						return;
					}
				}
				selector.wakeup();
			}
		}, "open-loop-timer");
		timer.setDaemon(true);
		timer.start();
		return timer;
	}

	private void send(Target target, long intendedNs, long offsetNs, boolean measured) {
		if (measured) {
			this.due++;
		}
		Connection connection = target.idle.pollFirst();
		long nowNs = System.nanoTime();
		if (connection == null) {
			if (this.open.size() >= this.settings.maxConnections()) {
				error(measured, "no free connection (all %d busy)".formatted(this.settings.maxConnections()));
				return;
			}
			try {
				connection = connect(target);
			}
			catch (IOException ex) {
				error(measured, ex.getClass().getSimpleName());
				return;
			}
		}
		connection.assign(intendedNs, nowNs, measured);
		this.busy++;
		if (this.sliceNs > 0 && measured) {
			// The slice is chosen by due time, like the histograms' latency.
			connection.slice = (int) Math.min((offsetNs - this.warmupNs) / this.sliceNs, this.slices.size() - 1);
		}
		if (connection.connected) {
			write(connection, nowNs);
		}
	}

	private Connection connect(Target target) throws IOException {
		SocketChannel channel = SocketChannel.open();
		try {
			channel.configureBlocking(false);
			channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
			Connection connection = new Connection(target, channel);
			connection.connected = channel.connect(target.address);
			connection.key = channel.register(Objects.requireNonNull(this.selector, "not running"),
					connection.connected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, connection);
			this.open.add(connection);
			this.connectionsOpened++;
			this.mostOpen = Math.max(this.mostOpen, this.open.size());
			return connection;
		}
		catch (IOException ex) {
			channel.close();
			throw ex;
		}
	}

	private void write(Connection connection, long nowNs) {
		connection.sentNs = nowNs;
		if (connection.measured) {
			this.sent++;
		}
		connection.request.rewind();
		try {
			connection.channel.write(connection.request);
			if (connection.request.hasRemaining()) {
				Objects.requireNonNull(connection.key, "not connected")
					.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
			}
		}
		catch (IOException ex) {
			fail(connection, ex.getClass().getSimpleName());
		}
	}

	private void onReady(SelectionKey key) {
		Connection connection = (Connection) key.attachment();
		try {
			if (key.isConnectable()) {
				connection.channel.finishConnect();
				connection.connected = true;
				key.interestOps(SelectionKey.OP_READ);
				if (connection.busy) {
					write(connection, System.nanoTime());
				}
				return;
			}
			if (key.isWritable()) {
				connection.channel.write(connection.request);
				if (!connection.request.hasRemaining()) {
					key.interestOps(SelectionKey.OP_READ);
				}
			}
			if (key.isReadable()) {
				read(connection);
			}
		}
		catch (IOException ex) {
			fail(connection, ex.getClass().getSimpleName());
		}
	}

	private void read(Connection connection) throws IOException {
		while (connection.channel.isOpen()) {
			this.readBuffer.clear();
			int bytes = connection.channel.read(this.readBuffer);
			if (bytes < 0) {
				if (connection.busy && connection.parser.endOfStream()) {
					complete(connection, System.nanoTime());
				}
				else if (connection.busy) {
					fail(connection, "connection closed before the response");
				}
				close(connection);
				return;
			}
			this.readBuffer.flip();
			long nowNs = System.nanoTime();
			while (this.readBuffer.hasRemaining()) {
				if (!connection.busy) {
					// Bytes nobody asked for: the connection cannot be trusted any more.
					close(connection);
					return;
				}
				if (connection.parser.feed(this.readBuffer)) {
					complete(connection, nowNs);
				}
			}
			if (bytes < READ_BUFFER_BYTES) {
				return;
			}
		}
	}

	private void complete(Connection connection, long nowNs) {
		connection.busy = false;
		this.busy--;
		int status = connection.parser.status();
		if (connection.measured) {
			if (status >= 200 && status < 300) {
				this.ok++;
				long fromIntendedUs = (nowNs - connection.intendedNs) / 1000;
				this.fromIntendedUs.recordValue(fromIntendedUs);
				this.fromSentUs.recordValue((nowNs - connection.sentNs) / 1000);
				this.sendLagUs.recordValue(Math.max(0, connection.sentNs - connection.intendedNs) / 1000);
				if (!this.slices.isEmpty()) {
					this.slices.get(connection.slice).recordValue(fromIntendedUs);
				}
			}
			else {
				error(true, "status " + status);
			}
		}
		if (connection.parser.keepAlive()) {
			connection.target.idle.addFirst(connection);
		}
		else {
			close(connection);
		}
	}

	private void fail(Connection connection, String cause) {
		if (connection.busy) {
			connection.busy = false;
			this.busy--;
			error(connection.measured, cause);
		}
		close(connection);
	}

	private void expire(long nowNs) {
		for (Connection connection : List.copyOf(this.open)) {
			if (connection.busy && nowNs - connection.assignedNs > this.timeoutNs) {
				fail(connection, "timeout");
			}
		}
	}

	private void close(Connection connection) {
		if (this.open.remove(connection)) {
			connection.target.idle.remove(connection);
			try {
				connection.channel.close();
			}
			catch (IOException ex) {
				// Closing is best effort; the run has what it needs from this connection.
			}
		}
	}

	private void error(boolean measured, String cause) {
		if (measured) {
			this.errors.merge(cause, 1L, Long::sum);
		}
	}

	/** Process and loop-thread CPU at one moment, to charge the measured part only. */
	private record CpuSample(long wallNs, long processCpuNs, long loopCpuNs) {

		static CpuSample take(ThreadMXBean threads) {
			long processCpuNs = ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
			return new CpuSample(System.nanoTime(), processCpuNs, threads.getCurrentThreadCpuTime());
		}

		double coresUntil(CpuSample end) {
			long wallNs = end.wallNs - this.wallNs;
			return (wallNs <= 0 || this.processCpuNs < 0) ? Double.NaN
					: (double) (end.processCpuNs - this.processCpuNs) / wallNs;
		}

		double loopCoresUntil(CpuSample end) {
			long wallNs = end.wallNs - this.wallNs;
			return (wallNs <= 0) ? Double.NaN : (double) (end.loopCpuNs - this.loopCpuNs) / wallNs;
		}

	}

}
