package com.example.threading.load.service.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code show stat} as HAProxy 2.6 writes it (header and lines cut to the first columns that matter here and a few more). */
class HaproxyStatsTest {

    private static final String HEADER = "# pxname,svname,qcur,qmax,scur,smax,slim,stot,bin,bout,dreq,dresp,ereq,econ,eresp,wretr,wredis,"
            + "status,weight,act,bck,chkfail,chkdown,lastchg,downtime,qlimit,pid,iid,sid,throttle,lbtot,tracked,type,rate,rate_lim,"
            + "rate_max,check_status,check_code\n";

    @Test
    void readsEachServersStatusAndLastCheckButNotTheSummaries() {
        String csv = HEADER
                + "events,FRONTEND,,,1,2,8000,3,0,0,0,0,0,,,,,OPEN,,,,,,,,,1,2,0,,,,0,0,0,1,,\n"
                + "instances,app1,0,0,0,1,,1,0,0,,0,,0,0,0,0,UP,1,1,0,0,0,5,0,,1,3,1,,1,,2,0,,1,L7OK,200\n"
                + "instances,app2,0,0,0,1,,1,0,0,,0,,0,0,0,0,DOWN 1/2,1,1,0,1,1,1,1,,1,3,2,,1,,2,0,,1,L4CON,\n"
                + "instances,app3,0,0,0,1,,1,0,0,,0,,0,0,0,0,UP 1/2,1,1,0,1,1,1,1,,1,3,2,,1,,2,0,,1,INI,\n"
                + "instances,BACKEND,0,0,0,1,800,3,0,0,0,0,,0,0,0,0,UP,2,2,0,,0,5,0,,1,3,0,,3,,1,0,,1,,\n";
        List<HaproxyStats.ServerState> servers = HaproxyStats.parse(csv);
        assertThat(servers).containsExactly(new HaproxyStats.ServerState("instances", "app1", "UP", "L7OK"),
                new HaproxyStats.ServerState("instances", "app2", "DOWN 1/2", "L4CON"),
                new HaproxyStats.ServerState("instances", "app3", "UP 1/2", "INI"));
        assertThat(servers).extracting(HaproxyStats.ServerState::inRotation).containsExactly(true, false, true);
        assertThat(servers).extracting(HaproxyStats.ServerState::checkedUp).containsExactly(true, false, false);
    }

    @Test
    void refusesSomethingElse() {
        assertThatThrownBy(() -> HaproxyStats.parse("Unknown command\n")).hasMessageContaining("show stat");
    }
}
