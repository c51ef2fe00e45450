package dev.toolsmith.ui;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;

/** Signs in through the real form login and returns the session cookie's value. */
final class SignIn {

    static final String ADMIN_PASSWORD = "admin-local-only";
    static final String VIEWER_PASSWORD = "viewer-local-only";
    static final String COOKIE = "toolsmith-session";

    private SignIn() {}

    static String as(String user, String password) {
        return given().header("X-Requested-With", "test").contentType(ContentType.URLENC)
                .formParam("username", user).formParam("password", password)
                .when().post("/api/session/login")
                .then().statusCode(200)
                .extract().cookie(COOKIE);
    }

    static String admin() {
        return as("admin", ADMIN_PASSWORD);
    }

    static String viewer() {
        return as("viewer", VIEWER_PASSWORD);
    }
}
