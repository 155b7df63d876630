/* CRedis: a Redis connection through hiredis (see webparse_redis.h). */
#include "webparse_redis.h"

#include <hiredis/hiredis.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct WRConnection {
    redisContext *context;
};

/* hiredis' reply is the reply: the header's opaque type is its struct. */
struct WRReply {
    redisReply reply;
};

static struct timeval seconds(double timeout) {
    double whole = floor(timeout);
    return (struct timeval){.tv_sec = (time_t)whole, .tv_usec = (suseconds_t)((timeout - whole) * 1e6)};
}

WRConnection *wr_connect(const char *host, int port, double timeout, char **error) {
    redisContext *context = redisConnectWithTimeout(host, port, seconds(timeout));
    if (!context || context->err) {
        *error = strdup(context ? context->errstr : "cannot allocate a connection");
        if (context)
            redisFree(context);
        return NULL;
    }
    redisSetTimeout(context, seconds(timeout));
    redisEnableKeepAlive(context);
    WRConnection *connection = malloc(sizeof *connection);
    connection->context = context;
    return connection;
}

const char *wr_error(const WRConnection *connection) {
    return connection->context->err ? connection->context->errstr : NULL;
}

void wr_close(WRConnection *connection) {
    redisFree(connection->context);
    free(connection);
}

WRReply *wr_command(WRConnection *connection, int count, const char **arguments, const size_t *lengths) {
    return redisCommandArgv(connection->context, count, arguments, lengths);
}

WRReplyKind wr_reply_kind(const WRReply *reply) {
    return (WRReplyKind)reply->reply.type;
}

long long wr_reply_integer(const WRReply *reply) {
    return reply->reply.integer;
}

const char *wr_reply_text(const WRReply *reply, size_t *length) {
    *length = reply->reply.len;
    return reply->reply.str;
}

size_t wr_reply_count(const WRReply *reply) {
    return reply->reply.elements;
}

const WRReply *wr_reply_element(const WRReply *reply, size_t index) {
    return (const WRReply *)reply->reply.element[index];
}

void wr_reply_free(WRReply *reply) {
    freeReplyObject(reply);
}
