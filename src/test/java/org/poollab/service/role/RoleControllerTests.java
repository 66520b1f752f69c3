package org.poollab.service.role;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.Optional;

import javax.sql.DataSource;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;

@WebMvcTest(RoleController.class)
@Import(SimpleMeterRegistry.class) // for the refusal counter; the web slice has no
									// metrics
class RoleControllerTests {

	@Autowired
	private MockMvcTester mvc;

	@Autowired
	private MeterRegistry registry;

	@MockitoBean
	private RoleRepository roles;

	@MockitoBean
	private DataSource dataSource;

	@Test
	void rolesAreListedWithTheirPermissionsNested() {
		given(this.roles.findAll()).willReturn(
				List.of(new Role(1, "admin", "Role for admin staff", List.of(new Permission(7, "roles:create"))),
						new Role(2, "viewer", "Role for viewer staff", List.of())));
		assertThat(this.mvc.get().uri("/roles")).hasStatusOk()
			.hasContentTypeCompatibleWith(MediaType.APPLICATION_JSON)
			.bodyJson()
			.isLenientlyEqualTo("""
					[{"id":1,"name":"admin","permissions":[{"id":7,"name":"roles:create"}]},
					 {"id":2,"name":"viewer","permissions":[]}]""");
	}

	@Test
	void unknownRoleIsNotFoundProblem() {
		given(this.roles.findById(42)).willReturn(Optional.empty());
		assertThat(this.mvc.get().uri("/roles/42")).hasStatus(HttpStatus.NOT_FOUND)
			.hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
			.bodyJson()
			.extractingPath("$.detail")
			.isEqualTo("No role with id 42");
	}

	@Test
	void roleIdsThatAreNotPositiveWholeNumbersAreBadRequests() {
		for (String id : List.of("abc", "1.5", "-1", "0", "99999999999999999999")) {
			assertThat(this.mvc.get().uri("/roles/" + id)).hasStatus(HttpStatus.BAD_REQUEST)
				.hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
				.bodyJson()
				.extractingPath("$.detail")
				.asString()
				.contains("'" + id + "'", "whole number from 1");
		}
	}

	@Test
	void methodsOtherThanGetAreNotAllowed() {
		assertThat(this.mvc.post().uri("/roles")).hasStatus(HttpStatus.METHOD_NOT_ALLOWED)
			.hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
			.hasHeader("Allow", "GET");
	}

	@Test
	void noConnectionInTimeIsServiceUnavailableNotServerError() {
		Counter refused = this.registry.get("roles.requests.refused").tag("reason", "pool-timeout").counter();
		double refusedBefore = refused.count();
		given(this.roles.findAll()).willThrow(new CannotCreateTransactionException("Could not open JDBC Connection",
				new SQLTransientConnectionException("roles-0 - Connection is not available, request timed out")));
		assertThat(this.mvc.get().uri("/roles")).hasStatus(HttpStatus.SERVICE_UNAVAILABLE)
			.hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
			.hasHeader("Retry-After", "1")
			.bodyJson()
			.extractingPath("$.title")
			.isEqualTo("No database connection available in time");
		assertThat(refused.count() - refusedBefore).isEqualTo(1);
	}

	@Test
	void commitLostWithItsConnectionIsServiceUnavailable() {
		// The commit failed on a terminated backend; HikariCP closed the connection, so
		// the rollback that followed got HikariCP's "Connection is closed" (no SQLSTATE).
		given(this.roles.findAll()).willThrow(
				new TransactionSystemException("JDBC rollback failed", new SQLException("Connection is closed")));
		assertThat(this.mvc.get().uri("/roles")).hasStatus(HttpStatus.SERVICE_UNAVAILABLE)
			.hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
			.bodyJson()
			.extractingPath("$.type")
			.isEqualTo("urn:poollab:database-unavailable");
	}

	@Test
	void transactionFailureOtherThanALostConnectionStaysAServerError() {
		given(this.roles.findAll()).willThrow(new TransactionSystemException("JDBC commit failed",
				new SQLException("could not serialize access", "40001")));
		// Not handled: the servlet container answers 500.
		assertThat(this.mvc.get().uri("/roles")).hasFailed()
			.failure()
			.hasRootCauseMessage("could not serialize access");
	}

	@Test
	void timeoutWhileTheDatabaseRefusesConnectionsIsDatabaseUnavailableNotPoolTimeout() {
		// HikariCP's timeout carries the pool's last failure to connect (and its
		// SQLSTATE).
		SQLException refusedConnect = new SQLException("Connection to 127.0.0.1:5432 refused", "08001");
		given(this.roles.findAll()).willThrow(new CannotCreateTransactionException("Could not open JDBC Connection",
				new SQLTransientConnectionException("roles-0 - Connection is not available, request timed out", "08001",
						refusedConnect)));
		assertThat(this.mvc.get().uri("/roles")).hasStatus(HttpStatus.SERVICE_UNAVAILABLE)
			.hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
			.bodyJson()
			.extractingPath("$.type")
			.isEqualTo("urn:poollab:database-unavailable");
	}

}
