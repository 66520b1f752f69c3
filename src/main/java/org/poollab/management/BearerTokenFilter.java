package org.poollab.management;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.poollab.service.system.ResizeToken;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.PathContainer;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The JDBC service's (servlet) check of the token on writes to the {@code poolsize}
 * endpoint; reads and every other request pass untouched.
 */
final class BearerTokenFilter extends OncePerRequestFilter {

	private final ResizeToken token;

	private final PoolSizeWrites writes;

	BearerTokenFilter(ResizeToken token, PoolSizeWrites writes) {
		this.token = token;
		this.writes = writes;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (this.writes.matches(request.getMethod(), PathContainer.parsePath(request.getRequestURI()))) {
			ResizeToken.Check check = this.token.check(request.getHeader(HttpHeaders.AUTHORIZATION));
			if (check != ResizeToken.Check.ACCEPTED) {
				refuse(response, check);
				return;
			}
		}
		chain.doFilter(request, response);
	}

	private static void refuse(HttpServletResponse response, ResizeToken.Check check) throws IOException {
		response.setStatus(check.status());
		if (check == ResizeToken.Check.MISSING) {
			response.setHeader(HttpHeaders.WWW_AUTHENTICATE, ResizeToken.CHALLENGE);
		}
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		byte[] body = check.problem().getBytes(StandardCharsets.UTF_8);
		response.setContentLength(body.length);
		response.getOutputStream().write(body);
	}

}
