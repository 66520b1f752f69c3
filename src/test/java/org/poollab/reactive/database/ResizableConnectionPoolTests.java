package org.poollab.reactive.database;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.r2dbc.autoconfigure.R2dbcProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.willAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

/**
 * What a resize does to the connections around it, on a connection factory that opens
 * stand-in connections: nothing borrowed from the old pool is lost or left open, and a
 * request still waiting on the old pool when it goes is served by the new one.
 */
class ResizableConnectionPoolTests {

	private static final Duration BLOCK = Duration.ofSeconds(10);

	private final List<Connection> opened = new CopyOnWriteArrayList<>();

	private final ConnectionFactory database = mock(ConnectionFactory.class);

	private final ResizableConnectionPool pool;

	ResizableConnectionPoolTests() {
		willAnswer((invocation) -> Mono.fromSupplier(this::open)).given(this.database).create();
		R2dbcProperties.Pool settings = StandIns.fixedSize(1);
		settings.setMaxAcquireTime(BLOCK);
		this.pool = new ResizableConnectionPool(this.database, settings);
	}

	@AfterEach
	void close() {
		Mono.from(this.pool.close()).block(BLOCK);
	}

	@Test
	void resizingOpensTheNewSizeAndClosesTheOldPoolsConnections() {
		assertThat(this.pool.warmup().block(BLOCK)).isEqualTo(1);
		this.pool.resize(3, BLOCK).block(BLOCK);
		assertThat(this.pool.metrics().allocatedSize()).isEqualTo(3);
		assertThat(this.pool.metrics().getMaxAllocatedSize()).isEqualTo(3);
		assertThat(this.pool.sizes()).isEqualTo(new ResizableConnectionPool.Sizes(3, 3, 3));
		assertThat(this.opened).hasSize(4);
		verify(this.opened.get(0)).close();
	}

	@Test
	void aConnectionBorrowedFromTheOldPoolIsClosedWhenGivenBack() {
		this.pool.warmup().block(BLOCK);
		Connection borrowed = this.pool.create().block(BLOCK);
		// The old pool cannot drain while the connection is out: it is disposed when
		// the (short) timeout passes.
		// The timeout bounds opening the new pool and draining the old one together: the
		// old one never drains here (its connection stays out), so the resize ends when
		// it runs out. A second leaves room for opening the new pool on a busy machine.
		this.pool.resize(2, Duration.ofSeconds(1)).block(BLOCK);
		Connection underlying = this.opened.get(0);
		verify(underlying, never()).close();
		Mono.from(borrowed.close()).block(BLOCK);
		verify(underlying).close();
		assertThat(this.pool.metrics().allocatedSize()).isEqualTo(2);
	}

	@Test
	void aRequestWaitingOnTheOldPoolWhenItGoesGetsAConnectionFromTheNewOne() {
		this.pool.warmup().block(BLOCK);
		Connection borrowed = this.pool.create().block(BLOCK);
		CompletableFuture<Connection> waiting = this.pool.create().toFuture();
		assertThat(waiting).as("the old pool's only connection is out").isNotDone();
		// The timeout bounds opening the new pool and draining the old one together: the
		// old one never drains here (its connection stays out), so the resize ends when
		// it runs out. A second leaves room for opening the new pool on a busy machine.
		this.pool.resize(2, Duration.ofSeconds(1)).block(BLOCK);
		Connection served = waiting.join();
		assertThat(this.pool.metrics().acquiredSize()).as("from the new pool").isEqualTo(1);
		Mono.from(served.close()).block(BLOCK);
		Mono.from(borrowed.close()).block(BLOCK);
		assertThat(this.pool.metrics().acquiredSize()).isZero();
	}

	@Test
	void resizingToTheSizeThePoolHoldsChangesNothing() {
		this.pool.warmup().block(BLOCK);
		this.pool.resize(1, BLOCK).block(BLOCK);
		assertThat(this.opened).hasSize(1);
	}

	private Connection open() {
		Connection connection = StandIns.connection();
		this.opened.add(connection);
		return connection;
	}

}
