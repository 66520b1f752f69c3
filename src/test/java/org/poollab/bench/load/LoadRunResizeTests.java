package org.poollab.bench.load;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A resize refused by an instance that has died is that point's death, not a crash of the
 * lab (seen in a sweep: a {@code ConnectException} ended it); a resize refused by live
 * instances is still the lab's failure.
 */
class LoadRunResizeTests {

	private static final Duration GRACE = Duration.ofSeconds(2);

	@Test
	void aResizeThatWorksIsNoDeath() throws Exception {
		AtomicInteger resizes = new AtomicInteger();
		assertThat(LoadRun.resizeUnlessDead(resizes::incrementAndGet, () -> false, GRACE)).isTrue();
		assertThat(resizes).hasValue(1);
	}

	@Test
	void aResizeRefusedByAnInstanceSeenDeadIsADeath() throws Exception {
		// The process exits moments after its sockets close: dead only on the third look.
		AtomicInteger looks = new AtomicInteger();
		boolean resized = LoadRun.resizeUnlessDead(() -> {
			throw new ConnectException("Connection refused");
		}, () -> looks.incrementAndGet() >= 3, GRACE);
		assertThat(resized).isFalse();
		assertThat(looks.get()).isGreaterThanOrEqualTo(3);
	}

	@Test
	void aResizeRefusedByLiveInstancesIsTheLabsFailure() {
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> LoadRun.resizeUnlessDead(() -> {
			throw new ConnectException("Connection refused");
		}, () -> false, Duration.ofMillis(200))).withMessage("Connection refused");
	}

}
