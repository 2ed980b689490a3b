use fastframe::Runtime;
use fastframe::device::Device;
fn main() {
    let mut rt = Runtime::from_scene("scenes/render_loop.ron").unwrap();
    rt.world.resource_mut::<Device>().trace = Some(Vec::new());
    rt.run(3).unwrap();
    let t = rt.world.resource_mut::<Device>().trace.take().unwrap();
    println!("{}", t.len());
    for s in t.iter().take(30) {
        println!(
            "{} {:?} {:?} {:?}",
            s.frame, s.command, s.writes, s.back_buffers
        );
    }
}
