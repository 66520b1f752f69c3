package org.poollab.bench.deploy;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.poollab.service.system.ResizeToken;

/**
 * The credential the lab sends to a service's resize endpoint when the service asks for
 * one ({@link ResizeToken#PROPERTY} on the service's side): a bearer token. It comes from
 * the environment only, the variable the service reads it from too
 * ({@value #ENVIRONMENT_VARIABLE}), never from a command line, which any user of the
 * machine can read and Maven echoes; it is never printed, written to results or logged
 * ({@link #toString()} hides it).
 */
public final class ResizeCredential {

	/** Where the lab reads the token from. */
	public static final String ENVIRONMENT_VARIABLE = ResizeToken.VARIABLE;

	/** The setting a user might try on the command line, refused there. */
	public static final String PROPERTY = "bench.resizeToken";

	private final String secret;

	private ResizeCredential(String secret) {
		this.secret = secret;
	}

	/**
	 * The token from the environment, empty when the variable is unset or blank.
	 * @param environment looks a variable up, e.g. {@code System::getenv}
	 */
	public static Optional<ResizeCredential> from(UnaryOperator<String> environment) {
		String value = environment.apply(ENVIRONMENT_VARIABLE);
		return (value == null || value.isBlank()) ? Optional.empty() : Optional.of(new ResizeCredential(value.strip()));
	}

	/** The {@code Authorization} header's value. */
	String authorization() {
		return "Bearer " + this.secret;
	}

	@Override
	public String toString() {
		return "(a token from " + ENVIRONMENT_VARIABLE + ")";
	}

	/**
	 * A POST to a resize endpoint, with the credential when there is one.
	 * @param size the JSON value of {@code maximumPoolSize}
	 */
	static HttpRequest resizeRequest(URI endpoint, String size, Optional<ResizeCredential> token) {
		HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
			.header("Content-Type", "application/json")
			.timeout(Duration.ofSeconds(60))
			.POST(HttpRequest.BodyPublishers.ofString("{\"maximumPoolSize\":" + size + "}"));
		token.ifPresent((credential) -> request.header("Authorization", credential.authorization()));
		return request.build();
	}

}
