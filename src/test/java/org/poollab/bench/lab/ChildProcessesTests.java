package org.poollab.bench.lab;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ChildProcessesTests {

	@Test
	void theCleanUpOfAProcessRunsOnceItHasExited() throws Exception {
		try (ChildProcesses processes = new ChildProcesses()) {
			ProcessHandle sleep = sleep();
			AtomicBoolean aliveInCleanUp = new AtomicBoolean(true);
			AtomicInteger cleanUps = new AtomicInteger();
			// Exited: a zombie until the JVM reaps it, which ChildProcesses.running
			// counts as stopped (isAlive does not).
			processes.track("sleep", sleep, () -> {
				aliveInCleanUp.set(ChildProcesses.running(sleep));
				cleanUps.incrementAndGet();
			});
			processes.stopAll();
			assertThat(cleanUps).hasValue(1);
			assertThat(aliveInCleanUp).isFalse();
			processes.stopAll();
			assertThat(cleanUps).as("stopped once").hasValue(1);
		}
	}

	@Test
	void stoppingOneProcessRunsItsCleanUp() throws Exception {
		try (ChildProcesses processes = new ChildProcesses()) {
			ProcessHandle sleep = sleep();
			AtomicBoolean aliveInCleanUp = new AtomicBoolean(true);
			processes.track("sleep", sleep, () -> aliveInCleanUp.set(ChildProcesses.running(sleep)));
			processes.stop(sleep);
			assertThat(aliveInCleanUp).isFalse();
		}
	}

	@Test
	void aFailingCleanUpDoesNotKeepTheOthersFromRunning() throws Exception {
		try (ChildProcesses processes = new ChildProcesses()) {
			ProcessHandle first = sleep();
			ProcessHandle second = sleep();
			AtomicBoolean cleaned = new AtomicBoolean();
			processes.track("first", first, () -> cleaned.set(true));
			processes.track("second", second, () -> {
				throw new IllegalStateException("could not clean up");
			});
			processes.stopAll();
			assertThat(ChildProcesses.running(first)).isFalse();
			assertThat(ChildProcesses.running(second)).isFalse();
			assertThat(cleaned).isTrue();
		}
	}

	/**
	 * The shutdown hook's case: the sweep's own thread is stopping a process (its
	 * clean-up half done) when the hook stops everything; the hook returns, and the JVM
	 * halts, only once that clean-up has finished.
	 */
	@Test
	void aSecondStopWaitsUntilTheCleanUpOfAStopUnderWayHasFinished() throws Exception {
		try (ChildProcesses processes = new ChildProcesses()) {
			CountDownLatch cleaning = new CountDownLatch(1);
			CountDownLatch finish = new CountDownLatch(1);
			AtomicBoolean cleaned = new AtomicBoolean();
			processes.track("sleep", sleep(), () -> {
				cleaning.countDown();
				try {
					finish.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				cleaned.set(true);
			});
			CompletableFuture<Void> first = CompletableFuture.runAsync(processes::stopAll);
			assertThat(cleaning.await(15, TimeUnit.SECONDS)).isTrue();
			CompletableFuture<Void> second = CompletableFuture.runAsync(processes::stopAll);
			Thread.sleep(300);
			assertThat(second).as("waiting for the clean-up under way").isNotDone();
			finish.countDown();
			second.get(15, TimeUnit.SECONDS);
			assertThat(cleaned).isTrue();
			first.get(15, TimeUnit.SECONDS);
		}
	}

	private static ProcessHandle sleep() throws Exception {
		return new ProcessBuilder("sleep", "60").start().toHandle();
	}

}
