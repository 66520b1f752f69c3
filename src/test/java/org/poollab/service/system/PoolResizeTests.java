package org.poollab.service.system;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The resize contract both services' {@code poolsize} endpoints share: which sizes pass,
 * and the loopback guard, which must check the address the actuator really listens on.
 */
class PoolResizeTests {

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
	@CsvSource(delimiter = '|',
			textBlock = """
					own management port, its address unset   | 8080 | 127.0.0.1 | 0    |           | management.server.address to be a loopback address (e.g. 127.0.0.1), because management.server.port=0 serves the actuator on a connector of its own, which does not use server.address, but it is '(unset: all interfaces)'
					own management port on all interfaces    | 8080 | 127.0.0.1 | 9090 | 0.0.0.0   | management.server.address to be a loopback address (e.g. 127.0.0.1), because management.server.port=9090 serves the actuator on a connector of its own, which does not use server.address, but it is '0.0.0.0'
					management port same as the server's     | 8080 | 0.0.0.0   | 8080 | 127.0.0.1 | server.address to be a loopback address (e.g. 127.0.0.1), but it is '0.0.0.0'
					no management port, public server        | 8080 | 0.0.0.0   |      | 127.0.0.1 | server.address to be a loopback address (e.g. 127.0.0.1), but it is '0.0.0.0'
					""")
	void guardChecksTheAddressTheActuatorReallyListensOn(String setUp, String serverPort, String serverAddress,
			String managementPort, String managementAddress, String message) {
		assertThatIllegalStateException()
			.isThrownBy(() -> PoolResize
				.requireLoopback(environment(serverPort, serverAddress, managementPort, managementAddress)))
			.withMessage("lab.pool-resize.enabled=true needs " + message);
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', textBlock = """
			own management port on loopback, public server | 8080 | 0.0.0.0   | 9090 | 127.0.0.1
			management address without a port of its own   | 8080 | 127.0.0.1 |      | 0.0.0.0
			""")
	void guardAcceptsAnActuatorOnLoopback(String setUp, String serverPort, String serverAddress, String managementPort,
			String managementAddress) {
		assertThatNoException().isThrownBy(() -> PoolResize
			.requireLoopback(environment(serverPort, serverAddress, managementPort, managementAddress)));
	}

	private static MockEnvironment environment(String serverPort, String serverAddress, String managementPort,
			String managementAddress) {
		MockEnvironment environment = new MockEnvironment().withProperty("server.port", serverPort)
			.withProperty("server.address", serverAddress);
		if (managementPort != null) {
			environment.setProperty("management.server.port", managementPort);
		}
		if (managementAddress != null) {
			environment.setProperty("management.server.address", managementAddress);
		}
		return environment;
	}

}
