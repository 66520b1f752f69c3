package org.poollab.bench.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.poollab.bench.lab.BenchSettingException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The remote-engine settings are checked as a whole before any engine is asked anything:
 * what only makes sense with engines is refused without them, and an engine on another
 * machine is refused only while the lab deploys the service itself.
 */
class RemoteEnginesTests {

	private static final Path BUILD = Path.of("/work/build");

	@Test
	void enginesTalkRmiOverSslWithTheBuildsKeystoreAndAFiftyMillisecondSkewLimitByDefault() {
		RemoteEngines engines = RemoteEngines.of(List.of("127.0.0.1:1099", " 127.0.0.2:1100"), null, null, null, BUILD);
		assertThat(engines.addresses()).containsExactly("127.0.0.1:1099", "127.0.0.2:1100");
		assertThat(engines.ssl()).isTrue();
		assertThat(engines.keystore()).isEqualTo(BUILD.resolve("rmi_keystore.jks"));
		assertThat(engines.keystoreName()).isEqualTo("rmi_keystore.jks");
		assertThat(engines.maxClockSkew()).isEqualTo(Duration.ofMillis(50));
	}

	@Test
	void noEnginesMeansJMeterRunsHere() {
		assertThat(RemoteEngines.of(null, null, null, null, BUILD).none()).isTrue();
		assertThat(RemoteEngines.of(List.of(), null, null, null, BUILD)).isSameAs(RemoteEngines.NONE);
	}

	@Test
	void theSslOptOutUsesNoKeystore() {
		RemoteEngines engines = RemoteEngines.of(List.of("127.0.0.1:1099"), false, null, Duration.ofMillis(20), BUILD);
		assertThat(engines.ssl()).isFalse();
		assertThat(engines.keystore()).isNull();
		assertThat(engines.maxClockSkew()).isEqualTo(Duration.ofMillis(20));
		assertThat(engines.startCommand("127.0.0.1:1099", "ApacheJMeter-5.6.3.jar"))
			.contains("-Jserver.rmi.ssl.disable=true")
			.doesNotContain("keystore");
	}

	@Test
	void aSettingAboutEnginesWithoutAnyIsRefused() {
		assertThatException().isThrownBy(() -> RemoteEngines.of(null, false, null, null, BUILD))
			.isInstanceOf(BenchSettingException.class)
			.withMessageStartingWith("bench.remoteEnginesSsl=false is not allowed without bench.remoteEngines");
		assertThatException().isThrownBy(() -> RemoteEngines.of(List.of(), null, Path.of("/k.jks"), null, BUILD))
			.isInstanceOf(BenchSettingException.class)
			.withMessageStartingWith("bench.rmiKeystore=/k.jks is not allowed without bench.remoteEngines");
		assertThatException().isThrownBy(() -> RemoteEngines.of(null, null, null, Duration.ofMillis(200), BUILD))
			.isInstanceOf(BenchSettingException.class)
			.withMessageStartingWith("bench.maxClockSkew=200ms is not allowed without bench.remoteEngines");
	}

	@Test
	void aKeystoreWithSslOffIsRefused() {
		assertThatException()
			.isThrownBy(() -> RemoteEngines.of(List.of("127.0.0.1:1099"), false, Path.of("/k.jks"), null, BUILD))
			.isInstanceOf(BenchSettingException.class)
			.withMessageStartingWith("bench.rmiKeystore=/k.jks is not allowed with bench.remoteEnginesSsl=false");
	}

	@Test
	void anEnginePortOutOfRangeIsRefusedNamingTheElement() {
		assertThatException()
			.isThrownBy(() -> RemoteEngines.of(List.of("127.0.0.1:1099", "127.0.0.1:70000"), null, null, null, BUILD))
			.isInstanceOf(BenchSettingException.class)
			.withMessageStartingWith(
					"bench.remoteEngines=127.0.0.1:1099,127.0.0.1:70000 is not allowed (element 2 is 127.0.0.1:70000)");
		assertThatException().isThrownBy(() -> RemoteEngines.of(List.of("127.0.0.1:0"), null, null, null, BUILD))
			.isInstanceOf(BenchSettingException.class)
			.withMessageContaining("(element 1 is 127.0.0.1:0)");
	}

	@Test
	void anEngineElsewhereIsRefusedWhileTheLabDeploysTheServiceAndAllowedOtherwise() {
		assertThatException()
			.isThrownBy(() -> JMeter.requireReachable(List.of("127.0.0.4:1099", "192.0.2.7:1099"), true))
			.isInstanceOf(BenchSettingException.class)
			.withMessageStartingWith(
					"bench.remoteEngines=127.0.0.4:1099,192.0.2.7:1099 is not allowed: 192.0.2.7 is not this machine's loopback");
		JMeter.requireReachable(List.of("127.0.0.4:1099", "192.0.2.7:1099"), false);
	}

	@Test
	void theStartCommandNamesTheEnginesAddressPortsAndTheKeystoreByItsName() {
		RemoteEngines engines = RemoteEngines.of(List.of("192.0.2.7:1099"), null, Path.of("/keys/lab.jks"), null,
				BUILD);
		assertThat(engines.startCommand("192.0.2.7:1099", "ApacheJMeter-5.6.3.jar"))
			.contains("-Djava.rmi.server.hostname=192.0.2.7 -jar JMETER_HOME/bin/ApacheJMeter-5.6.3.jar")
			.contains("-s -Jserver_port=1099 -Jserver.rmi.localport=1100")
			.endsWith("-Jserver.rmi.ssl.keystore.file=lab.jks");
	}

}
