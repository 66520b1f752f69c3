package org.poollab.bench.load;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.LabFailureException;

/**
 * The keystore with which the lab's JMeter and the remote engines authenticate each other
 * over RMI with SSL: one key pair that every side holds (JMeter's servers ask the client
 * for its certificate, and each side trusts the certificate in its own copy). The lab
 * makes it as JMeter's {@code bin/create-rmi-keystore.sh} does ({@code keytool}, RSA
 * 2048, alias {@code rmi}, store password {@code changeit}), but valid for
 * {@link #VALIDITY} instead of its 7 days, and keeps it: a new one would leave every
 * engine's copy stale.
 * <p>
 * The password stays JMeter's default, {@code changeit}: the engines then need no
 * password setting, and it would protect nothing, since whoever holds a copy of the file
 * can connect to the engines anyway. The file itself is the secret; the lab makes it
 * readable by its owner only.
 *
 * @param file where it is
 * @param notAfter when its certificate expires
 */
public record RmiKeystore(Path file, Instant notAfter) {

	/**
	 * What JMeter uses unless {@code server.rmi.ssl.keystore.password} says otherwise.
	 */
	static final String PASSWORD = "changeit";

	/**
	 * What JMeter looks for unless {@code server.rmi.ssl.keystore.alias} says otherwise.
	 */
	static final String ALIAS = "rmi";

	/** How long a keystore the lab makes is valid. */
	public static final Duration VALIDITY = Duration.ofDays(365);

	private static final Duration KEYTOOL_TIMEOUT = Duration.ofSeconds(60);

	/**
	 * The keystore at {@code file}; made there when there is none.
	 * @param made told whether it was made now
	 * @throws BenchSettingException when the file is no JMeter RMI keystore or it has
	 * expired
	 */
	static RmiKeystore ensure(Path file, Runnable made) throws IOException, InterruptedException {
		if (!Files.exists(file)) {
			make(file);
			made.run();
		}
		return read(file);
	}

	/**
	 * The keystore at {@code file}, made now when there is none: what the lab's own tests
	 * start their engines with.
	 */
	public static RmiKeystore ensure(Path file) throws IOException, InterruptedException {
		return ensure(file, () -> {
		});
	}

	private static void make(Path file) throws IOException, InterruptedException {
		Files.createDirectories(file.toAbsolutePath().getParent());
		// Made beside it and moved into place, so that two labs starting at once keep
		// one.
		Path fresh = file.resolveSibling(file.getFileName() + ".new-" + ProcessHandle.current().pid());
		Files.deleteIfExists(fresh);
		Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
		Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-keyalg", "RSA", "-keysize", "2048",
				"-alias", ALIAS, "-keystore", fresh.toString(), "-storetype", "JKS", "-storepass", PASSWORD, "-keypass",
				PASSWORD, "-validity", String.valueOf(VALIDITY.toDays()), "-dname", "CN=pool-sizing-lab JMeter RMI")
			.redirectErrorStream(true)
			.start();
		String output;
		try (InputStream in = process.getInputStream()) {
			output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		if (!process.waitFor(KEYTOOL_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
			process.destroyForcibly().waitFor();
		}
		if (process.exitValue() != 0 || !Files.isRegularFile(fresh)) {
			Files.deleteIfExists(fresh);
			throw new LabFailureException("keytool could not make the RMI keystore %s (exit code %d): %s"
				.formatted(file, process.exitValue(), output.strip()));
		}
		try {
			Files.setPosixFilePermissions(fresh, PosixFilePermissions.fromString("rw-------"));
		}
		catch (UnsupportedOperationException ex) {
			// Not a POSIX file system: its own permissions apply.
		}
		try {
			Files.move(fresh, file);
		}
		catch (FileAlreadyExistsException ex) {
			Files.delete(fresh);
		}
	}

	private static RmiKeystore read(Path file) throws IOException {
		KeyStore store = load(file);
		try {
			if (!(store.getCertificate(ALIAS) instanceof X509Certificate certificate) || !store.isKeyEntry(ALIAS)) {
				throw new BenchSettingException(
						"bench.rmiKeystore=%s has no key named '%s': JMeter's RMI over SSL needs one (its create-rmi-keystore.sh makes it). Name another keystore, or a file that does not exist for the lab to make one there. Nothing was started."
							.formatted(file, ALIAS));
			}
			RmiKeystore keystore = new RmiKeystore(file, certificate.getNotAfter().toInstant());
			if (keystore.notAfter.isBefore(Instant.now())) {
				throw new BenchSettingException(
						"bench.rmiKeystore=%s expired on %s: JMeter's engines refuse it. Delete it for the lab to make a new one (valid %d days), then copy the new one to every engine. Nothing was started."
							.formatted(file, keystore.notAfter, VALIDITY.toDays()));
			}
			return keystore;
		}
		catch (GeneralSecurityException ex) {
			throw new BenchSettingException(
					"bench.rmiKeystore=%s cannot be read (%s). Nothing was started.".formatted(file, ex.getMessage()),
					ex);
		}
	}

	private static KeyStore load(Path file) throws IOException {
		try (InputStream in = Files.newInputStream(file)) {
			// JKS, JMeter's default type; Java reads PKCS12 under that type too.
			KeyStore store = KeyStore.getInstance("JKS");
			store.load(in, PASSWORD.toCharArray());
			return store;
		}
		catch (GeneralSecurityException | IOException ex) {
			throw new BenchSettingException(
					"bench.rmiKeystore=%s is not a keystore the lab can open with JMeter's default password '%s' (%s): use one made by JMeter's create-rmi-keystore.sh, or name a file that does not exist for the lab to make one there. Nothing was started."
						.formatted(file, PASSWORD, ex.getMessage()),
					ex);
		}
	}

	/**
	 * TLS with this keystore's key and trusting its certificate, as JMeter's own RMI
	 * socket factories set it up.
	 */
	SSLContext sslContext() throws IOException {
		KeyStore store = load(this.file);
		try {
			KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
			keys.init(store, PASSWORD.toCharArray());
			TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trust.init(store);
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
			return context;
		}
		catch (GeneralSecurityException ex) {
			throw new IOException("Cannot set up TLS with " + this.file + ": " + ex.getMessage(), ex);
		}
	}

}
