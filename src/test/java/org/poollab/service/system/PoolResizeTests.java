package org.poollab.service.system;

import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The resize contract both services' {@code poolsize} endpoints share: which sizes pass;
 * the guard, which must check the address the actuator really listens on and refuse the
 * public port and a missing or malformed token off loopback, never quoting the token; and
 * the token's check. No server starts here.
 */
class PoolResizeTests {

	/** Not a secret: this test's token. */
	private static final String TOKEN = "poolsize-test-token-0123456789";

	@ParameterizedTest
	@CsvSource(textBlock = """
			1,    1
			' 8', 8
			1000, 1000
			""")
	void wholeNumbersFromOneToAThousandAreSizes(String value, int size) {
		assertThat(PoolResize.parseSize(value)).isEqualTo(size);
	}

	@ParameterizedTest
	@ValueSource(strings = { "0", "-1", "1001", "ten", "2.5", "" })
	void anythingElseIsNoSize(String value) {
		assertThat(PoolResize.parseSize(value)).isNull();
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', textBlock = """
			own management port, its address unset    | 8080 | 127.0.0.1 | 0    |
			own management port on all interfaces     | 8080 | 127.0.0.1 | 9090 | 0.0.0.0
			own management port on a non-loopback one | 8080 | 127.0.0.1 | 9090 | 192.0.2.7
			""")
	void guardRefusesAnActuatorOffLoopbackWithoutAToken(String setUp, String serverPort, String serverAddress,
			String managementPort, String managementAddress) {
		String bound = (managementAddress != null) ? managementAddress : "(unset: all interfaces)";
		assertThatIllegalStateException()
			.isThrownBy(
					() -> PoolResize.guard(environment(serverPort, serverAddress, managementPort, managementAddress)))
			.withMessage("lab.pool-resize.enabled=true on a non-loopback address needs lab.pool-resize.token "
					+ "(environment variable LAB_POOL_RESIZE_TOKEN, never on a command line): "
					+ "management.server.address is '" + bound + "', and management.server.port=" + managementPort
					+ " serves the actuator there on a connector of its own (which does not use server.address), "
					+ "so without a token anyone who can reach that port could change how hard the database is hit. "
					+ "Set the token, or bind management.server.address to a loopback address (e.g. 127.0.0.1)");
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|',
			textBlock = """
					no management port, public server, no token     | 0.0.0.0 |      |       | management.server.port is unset
					no management port, public server, a token      | 0.0.0.0 |      | token | management.server.port is unset
					management port same as the server's, a token   | 0.0.0.0 | 8080 | token | management.server.port=8080 is server.port's
					server address unset (all interfaces), a token  |         |      | token | management.server.port is unset
					""")
	void guardRefusesThePublicPortOffLoopbackTokenOrNot(String setUp, String serverAddress, String managementPort,
			String token, String why) {
		MockEnvironment environment = environment("8080", serverAddress, managementPort, "127.0.0.1");
		if (token != null) {
			environment.setProperty(ResizeToken.PROPERTY, TOKEN);
		}
		String bound = (serverAddress != null) ? serverAddress : "(unset: all interfaces)";
		assertThatIllegalStateException().isThrownBy(() -> PoolResize.guard(environment))
			.withMessage("lab.pool-resize.enabled=true refuses to serve the poolsize endpoint on the public port: "
					+ "server.address is '" + bound + "', not a loopback address, and the actuator shares that port ("
					+ why + "), but the public port never serves it. Give the actuator a port of its own "
					+ "(management.server.port) on a loopback address (management.server.address=127.0.0.1), or on "
					+ "another address with lab.pool-resize.token set (environment variable LAB_POOL_RESIZE_TOKEN)")
			.withMessageNotContaining(TOKEN);
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', textBlock = """
			own management port on loopback, public server | 8080 | 0.0.0.0   | 9090 | 127.0.0.1
			management address without a port of its own   | 8080 | 127.0.0.1 |      | 0.0.0.0
			public server, actuator not served over HTTP    | 8080 | 0.0.0.0   | -1   |
			""")
	void guardAcceptsAnActuatorOnLoopbackWithoutAToken(String setUp, String serverPort, String serverAddress,
			String managementPort, String managementAddress) {
		assertThat(PoolResize.guard(environment(serverPort, serverAddress, managementPort, managementAddress)))
			.isNull();
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', textBlock = """
			own management port on all interfaces | 8080 | 127.0.0.1 | 8081 | 0.0.0.0
			own management port on loopback       | 8080 | 127.0.0.1 | 8081 | 127.0.0.1
			everything on loopback                | 8080 | 127.0.0.1 |      |
			""")
	void guardAcceptsATokenAndHandsItOn(String setUp, String serverPort, String serverAddress, String managementPort,
			String managementAddress) {
		MockEnvironment environment = environment(serverPort, serverAddress, managementPort, managementAddress)
			.withProperty(ResizeToken.PROPERTY, TOKEN);
		ResizeToken token = PoolResize.guard(environment);
		assertThat(token).isNotNull();
		assertThat(token.check("Bearer " + TOKEN)).isEqualTo(ResizeToken.Check.ACCEPTED);
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', quoteCharacter = '`',
			textBlock = """
					empty                       | ``                                  | is blank
					spaces                      | `                    `              | is blank
					fifteen characters          | 0123456789abcde                     | is shorter than 16 characters
					a space inside              | `0123456789 abcdef0123`             | has a character outside that set (a space or a line break?)
					a trailing line break       | `0123456789abcdef0123<LF>`          | has a character outside that set (a space or a line break?)
					a quote                     | `0123456789"abcdef0123`             | has a character outside that set (a space or a line break?)
					""")
	void guardRefusesATokenThatBreaksTheRulesWithoutQuotingIt(String setUp, String token, String broken) {
		String value = token.replace("<LF>", "\n");
		MockEnvironment environment = environment("8080", "127.0.0.1", null, null).withProperty(ResizeToken.PROPERTY,
				value);
		assertThatIllegalStateException().isThrownBy(() -> PoolResize.guard(environment))
			.withMessage("lab.pool-resize.token (environment variable LAB_POOL_RESIZE_TOKEN) must be at least 16 "
					+ "characters from A-Z a-z 0-9 - . _ ~ + / (optionally ending in =), e.g. from "
					+ "`openssl rand -hex 32`; the one set " + broken + ". Unset, writes to the poolsize endpoint "
					+ "need no token, which is allowed on a loopback address only")
			.satisfies((ex) -> {
				if (!value.isBlank()) {
					assertThat(ex.getMessage()).doesNotContain(value.strip());
				}
			});
	}

	@Test
	void tokenComesFromTheEnvironmentVariable() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
							Map.of("LAB_POOL_RESIZE_TOKEN", TOKEN)));
		ConfigurationPropertySources.attach(environment);
		ResizeToken token = ResizeToken.from(environment);
		assertThat(token).isNotNull();
		assertThat(token.check("Bearer " + TOKEN)).isEqualTo(ResizeToken.Check.ACCEPTED);
	}

	@ParameterizedTest
	@ValueSource(strings = { "Bearer " + TOKEN, "bearer " + TOKEN, "BEARER " + TOKEN, "Bearer   " + TOKEN })
	void theTokenAsABearerCredentialIsAccepted(String authorization) {
		assertThat(token().check(authorization)).isEqualTo(ResizeToken.Check.ACCEPTED);
	}

	@ParameterizedTest
	@NullSource
	@ValueSource(strings = { "", "Bearer", "Bearer ", "Bearer" + TOKEN, "Basic " + TOKEN, TOKEN,
			"Bearer " + TOKEN + " " + TOKEN, "Token " + TOKEN })
	void noBearerCredentialIsMissing(String authorization) {
		assertThat(token().check(authorization)).isEqualTo(ResizeToken.Check.MISSING);
	}

	@ParameterizedTest
	@ValueSource(strings = { "Bearer another-token-0123456789", "Bearer " + TOKEN + "x", "Bearer x" + TOKEN,
			"Bearer poolsize-test-token-012345678" })
	void anotherTokenIsWrong(String authorization) {
		assertThat(token().check(authorization)).isEqualTo(ResizeToken.Check.WRONG);
	}

	@Test
	void refusalsAreProblemsNamingTheSettingNeverTheToken() {
		String missing = ResizeToken.Check.MISSING.problem();
		assertThat(ResizeToken.Check.MISSING.status()).isEqualTo(401);
		assertThat((Integer) JsonPath.read(missing, "$.status")).isEqualTo(401);
		assertThat((String) JsonPath.read(missing, "$.title")).isEqualTo("Unauthorized");
		assertThat((String) JsonPath.read(missing, "$.detail"))
			.isEqualTo("Changing the pool size needs the header Authorization: Bearer <lab.pool-resize.token>");
		String wrong = ResizeToken.Check.WRONG.problem();
		assertThat(ResizeToken.Check.WRONG.status()).isEqualTo(403);
		assertThat((Integer) JsonPath.read(wrong, "$.status")).isEqualTo(403);
		assertThat((String) JsonPath.read(wrong, "$.title")).isEqualTo("Forbidden");
		assertThat((String) JsonPath.read(wrong, "$.detail"))
			.isEqualTo("The bearer token is not lab.pool-resize.token");
		assertThat(ResizeToken.CHALLENGE).isEqualTo("Bearer realm=\"poolsize\"");
		assertThat(token()).hasToString("ResizeToken[lab.pool-resize.token, value hidden]");
	}

	@Test
	void theJdbcEndpointRefusesToBeCreatedOnThePublicPortOffLoopback() {
		endpoint().withPropertyValues("server.address=0.0.0.0", ResizeToken.PROPERTY + "=" + TOKEN)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageStartingWith(
						"lab.pool-resize.enabled=true refuses to serve the poolsize endpoint on the public port")
				.message()
				.doesNotContain(TOKEN));
	}

	@Test
	void theJdbcEndpointRefusesToBeCreatedOnItsOwnPortOffLoopbackWithoutAToken() {
		endpoint().withPropertyValues("management.server.port=8081", "management.server.address=0.0.0.0")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageStartingWith("lab.pool-resize.enabled=true on a non-loopback address needs "
						+ "lab.pool-resize.token (environment variable LAB_POOL_RESIZE_TOKEN"));
	}

	@Test
	void theJdbcEndpointRefusesAShortToken() {
		endpoint().withPropertyValues(ResizeToken.PROPERTY + "=short-token")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("the one set is shorter than 16 characters")
				.message()
				.doesNotContain("short-token"));
	}

	@Test
	void theJdbcEndpointStartsOnItsOwnPortOffLoopbackWithAToken() {
		endpoint()
			.withPropertyValues("management.server.port=8081", "management.server.address=0.0.0.0",
					ResizeToken.PROPERTY + "=" + TOKEN)
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(PoolSizeEndpoint.class));
	}

	/**
	 * The JDBC service's endpoint alone, on a pool that never connects; no server starts.
	 */
	private static ApplicationContextRunner endpoint() {
		return new ApplicationContextRunner().withUserConfiguration(PoolSizeEndpoint.class)
			.withBean(HikariDataSource.class, HikariDataSource::new)
			.withPropertyValues(PoolResize.ENABLED_PROPERTY + "=true", "server.address=127.0.0.1");
	}

	private static ResizeToken token() {
		ResizeToken token = ResizeToken.from(new MockEnvironment().withProperty(ResizeToken.PROPERTY, TOKEN));
		assertThat(token).isNotNull();
		return token;
	}

	private static MockEnvironment environment(String serverPort, String serverAddress, String managementPort,
			String managementAddress) {
		MockEnvironment environment = new MockEnvironment().withProperty("server.port", serverPort);
		if (serverAddress != null) {
			environment.setProperty("server.address", serverAddress);
		}
		if (managementPort != null) {
			environment.setProperty("management.server.port", managementPort);
		}
		if (managementAddress != null) {
			environment.setProperty("management.server.address", managementAddress);
		}
		return environment;
	}

}
