package org.poollab.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A console for the sweep (passed on to {@link System#out}) that runs an action in the
 * sweep's own thread the first time a line containing a cue is printed. The sweep waits
 * for the action, so what the action does happens before anything the sweep does after
 * printing the cue: a round's announcement ({@code single-run1: 2 point(s) in one JMeter
 * schedule ...}) is printed before that round's load starts.
 */
final class ConsoleCue extends PrintStream {

	private final Watch watch;

	private ConsoleCue(Watch watch) {
		super(watch, true, StandardCharsets.UTF_8);
		this.watch = watch;
	}

	/**
	 * @param cue text the line must contain, e.g. {@code single-run1:}
	 * @param action what to do then; a failure fails the sweep
	 */
	static ConsoleCue on(String cue, Action action) {
		return new ConsoleCue(new Watch(cue, action));
	}

	/** Whether the cue was printed and the action ran. */
	boolean ran() {
		return this.watch.ran;
	}

	interface Action {

		void run() throws Exception;

	}

	private static final class Watch extends OutputStream {

		private final String cue;

		private final Action action;

		private final StringBuilder line = new StringBuilder();

		private volatile boolean ran;

		Watch(String cue, Action action) {
			this.cue = cue;
			this.action = action;
		}

		@Override
		public synchronized void write(int b) {
			System.out.write(b);
			if (b == '\n') {
				this.line.setLength(0);
				return;
			}
			this.line.append((char) b);
			if (!this.ran && this.line.indexOf(this.cue) >= 0) {
				this.ran = true;
				System.out.flush();
				try {
					this.action.run();
				}
				catch (Exception ex) {
					throw new IllegalStateException("The action on '" + this.cue + "' failed", ex);
				}
			}
		}

		@Override
		public void flush() {
			System.out.flush();
		}

	}

}
