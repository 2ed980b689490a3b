use fastframe::Runtime;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let frame: u64 = std::env::args().nth(2).unwrap().parse().unwrap();
    let mut rt = Runtime::from_scene(&path).unwrap();
    rt.world
        .resource_mut::<fastframe::report::RunStats>()
        .keep_timeline = true;
    for _ in 0..frame + 4 {
        rt.tick().unwrap();
    }
    let all = rt
        .world
        .resource::<fastframe::report::RunStats>()
        .timeline
        .clone();
    let dev = rt.device();
    for x in all.iter().filter(|x| x.frame == frame) {
        println!(
            "{:>10} {:>10} {:>8} {:?} {:<10} {:<20} {}",
            x.start_ns / 1000,
            x.end_ns / 1000,
            x.stall_ns / 1000,
            x.stall,
            x.queue.to_string(),
            dev.label_name(x.label),
            x.name
        );
    }
}
